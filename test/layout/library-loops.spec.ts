import { libraryLoops } from './library-loops';

/** A cruised module as dependency-cruiser reports it, reduced to what the check reads. */
const cruised = (source: string, ...imports: string[]) => ({
  source,
  dependencies: imports.map((resolved) => ({ resolved })),
});

describe('loops between feature libraries', () => {
  it('finds two libraries that import each other through different modules', () => {
    const loops = libraryLoops([
      cruised('libs/a/write/a.commands.ts', 'libs/b/read/b.projection.ts'),
      cruised('libs/b/http/b.controller.ts', 'libs/a/read/a.presenter.ts'),
      cruised('libs/b/read/b.projection.ts'),
    ]);
    expect(loops).toEqual([
      {
        libraries: ['a', 'b'],
        imports: [
          'libs/a/write/a.commands.ts → libs/b/read/b.projection.ts',
          'libs/b/http/b.controller.ts → libs/a/read/a.presenter.ts',
        ],
      },
    ]);
  });

  it('finds a loop through three libraries, and none in a chain', () => {
    const chain = [
      cruised('libs/a/a.ts', 'libs/b/b.ts'),
      cruised('libs/b/b.ts', 'libs/c/c.ts'),
      cruised('libs/c/c.ts', 'libs/platform/x.ts'),
    ];
    expect(libraryLoops(chain)).toEqual([]);
    const loop = libraryLoops([...chain, cruised('libs/c/other.ts', 'libs/a/a.ts')]);
    expect(loop.map((l) => l.libraries)).toEqual([['a', 'b', 'c']]);
  });

  it('leaves out type-only imports, as the cycles of modules do', () => {
    const typeOnly = { resolved: 'libs/a/domain/a.decider.ts', dependencyTypes: ['import', 'type-only'] };
    const modules = [
      cruised('libs/a/write/a.commands.ts', 'libs/b/read/b.projection.ts'),
      { source: 'libs/b/read/b.projection.ts', dependencies: [typeOnly] },
    ];
    expect(libraryLoops(modules)).toEqual([]);
    expect(libraryLoops([...modules, cruised('libs/b/b.ts', 'libs/a/domain/a.decider.ts')])).toHaveLength(1);
  });

  it('leaves out the platform, the composition and specs', () => {
    expect(
      libraryLoops([
        cruised('libs/a/a.ts', 'libs/platform/p.ts', 'libs/composition/features.ts'),
        cruised('libs/composition/features.ts', 'libs/a/a.ts'),
        cruised('libs/platform/p.ts', 'libs/a/a.ts'),
        cruised('libs/b/b.ts', 'libs/a/a.ts'),
        cruised('libs/a/a.spec.ts', 'libs/b/b.ts'),
        cruised('libs/a/a.testing.ts', 'libs/b/b.ts'),
      ]),
    ).toEqual([]);
  });
});
