/**
 * `@orama/stemmers` declares its languages as package `exports`, which this project's TypeScript module
 * resolution (`node`) does not read; Node and Jest do. Each entry point has this shape.
 */
declare module '@orama/stemmers/*' {
  export function stemmer(word: string): string;
  export const language: string;
}
