/*
 * Preloaded (node -r) into a server run under --cpu-prof: V8 writes the profile only when the process
 * exits normally, and Nest's shutdown hooks end the process by re-raising the signal. Registered
 * before them, this listener exits at once with code 0, so the profile is written.
 */
process.once('SIGTERM', () => process.exit(0));
