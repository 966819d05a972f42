/** The PDF's bookmarks (its outline): one per page, nested as the page tree is, opening at its title. */
import { type PDFDocument, PDFHexString, PDFName, PDFNull, PDFNumber, type PDFRef } from 'pdf-lib';

export interface OutlineEntry {
  title: string;
  depth: number;
  page: PDFRef;
  /** Where the page's title is, from the bottom of the PDF page. */
  top: number;
}

interface Item {
  entry?: OutlineEntry;
  ref: PDFRef;
  children: Item[];
}

/** Adds the outline, shown open, and has viewers show it; entries in reading order. */
export function addOutline(doc: PDFDocument, entries: readonly OutlineEntry[]): void {
  if (entries.length === 0) return;
  const { context } = doc;
  const root: Item = { ref: context.nextRef(), children: [] };
  // A page deeper than its predecessor's child (depth skips a level) nests one level down all the same.
  const path: Array<{ item: Item; depth: number }> = [{ item: root, depth: -1 }];
  for (const entry of entries) {
    while ((path.at(-1) as { depth: number }).depth >= entry.depth) path.pop();
    const item: Item = { entry, ref: context.nextRef(), children: [] };
    (path.at(-1) as { item: Item }).item.children.push(item);
    path.push({ item, depth: entry.depth });
  }
  /** Writes an item's children, returns how many items are under it. */
  const write = (parent: Item): number => {
    let count = 0;
    parent.children.forEach((item, index) => {
      const entry = item.entry as OutlineEntry;
      const below = write(item);
      count += 1 + below;
      context.assign(
        item.ref,
        context.obj({
          Title: PDFHexString.fromText(entry.title),
          Parent: parent.ref,
          ...(index > 0 ? { Prev: parent.children[index - 1].ref } : {}),
          ...(index < parent.children.length - 1 ? { Next: parent.children[index + 1].ref } : {}),
          ...(below > 0
            ? { First: item.children[0].ref, Last: (item.children.at(-1) as Item).ref, Count: below }
            : {}),
          Dest: [entry.page, PDFName.of('XYZ'), PDFNull, PDFNumber.of(entry.top), PDFNull],
        }),
      );
    });
    return count;
  };
  const count = write(root);
  context.assign(
    root.ref,
    context.obj({
      Type: 'Outlines',
      First: root.children[0].ref,
      Last: (root.children.at(-1) as Item).ref,
      Count: count,
    }),
  );
  doc.catalog.set(PDFName.of('Outlines'), root.ref);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}
