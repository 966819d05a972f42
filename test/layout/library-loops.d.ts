/** Types of library-loops.js (a dependency-cruiser reporter plugin, plain JavaScript). */
export interface CruisedModule {
  source: string;
  dependencies: readonly { resolved: string; dependencyTypes?: readonly string[] }[];
}
export interface LibraryLoop {
  libraries: string[];
  imports: string[];
}
export function libraryGraph(modules: readonly CruisedModule[]): Map<string, Map<string, string[]>>;
export function libraryLoops(modules: readonly CruisedModule[]): LibraryLoop[];
