import { localRefs } from './refs';

type Json = Record<string, unknown>;

export interface GitBookOperation {
  operationId: string;
  summary?: string;
  responses: Record<string, Json>;
}

/** A route reduced to what identifies it: the method and the path with its parameters unnamed. */
function routeShape(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
}

/** The path prefix of the document's first server (`{host}/v1` gives `/v1`). */
function serverPath(document: Json): string {
  const [server] =
    (document.servers as { url: string; variables?: Record<string, { default: string }> }[]) ?? [];
  if (!server) return '';
  const url = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
}

/**
 * GitBook's published OpenAPI document, as shipped in `@gitbook/api`: where one of our routes is also one of
 * GitBook's (same method and path), it names the operation and describes the response.
 */
export class GitBookSpec {
  private readonly operations = new Map<string, GitBookOperation>();

  constructor(private readonly document: Json) {
    const base = serverPath(document);
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item)) {
        const op = operation as GitBookOperation | undefined;
        if (op?.operationId) this.operations.set(routeShape(method, `${base}${path}`), op);
      }
    }
  }

  /** The document from the installed `@gitbook/api`, or undefined when it is not installed. */
  static load(): GitBookSpec | undefined {
    try {
      return new GitBookSpec(require('@gitbook/api/spec/openapi.json'));
    } catch (error) {
      if ((error as { code?: string }).code === 'MODULE_NOT_FOUND') return undefined;
      throw error;
    }
  }

  operation(method: string, path: string): GitBookOperation | undefined {
    return this.operations.get(routeShape(method, path));
  }

  /** Copies into `components` every GitBook component that `node` refers to, directly or through others. */
  copyReferenced(node: unknown, components: Record<string, Json>): void {
    for (const ref of localRefs(node)) {
      const [, section, kind, name] = ref.split('/');
      if (section !== 'components') throw new Error(`Unsupported reference ${ref} in GitBook's document`);
      const source = (this.document.components as Record<string, Json>)[kind]?.[name];
      if (source === undefined) throw new Error(`GitBook's document has no ${ref}`);
      components[kind] ??= {};
      const existing = components[kind][name];
      if (existing === source) continue;
      if (existing !== undefined) throw new Error(`${ref} is defined both here and in GitBook's document`);
      components[kind][name] = source;
      this.copyReferenced(source, components);
    }
  }
}
