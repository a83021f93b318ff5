import { describe, expect, it } from 'vitest';
import {
  CreateNoteBody,
  NOTEBOOK_TEXT,
  NoteDocumentInput,
  notebookOffer,
  noteSnippet,
  safeNoteHref,
  sanitizeNoteDocument,
  textToNoteDocument,
} from '../../contract/notebooks';

/** The notebook rules both sides use (002 §5, §9) and the note document's bounds. */
describe('notebook rules', () => {
  const books = [{ notebook_name: 'Rates' }, { notebook_name: 'My Notes' }];

  it('offers to create only a trimmed, valid name that no notebook holds', () => {
    expect(notebookOffer('  Energy ', books)).toBe('Energy');
    expect(notebookOffer('   ', books)).toBeNull();
    expect(notebookOffer(' rates', books)).toBeNull();
    expect(notebookOffer('x'.repeat(101), books)).toBeNull();
    expect(notebookOffer('Anything', [])).toBe('Anything');
  });

  it("keeps the spec's texts", () => {
    expect(NOTEBOOK_TEXT.pickerPlaceholder).toBe('Find notebook or create one');
    expect(NOTEBOOK_TEXT.pickerEmpty).toBe('Please create a Notebook');
    expect(NOTEBOOK_TEXT.noteCreated).toBe('Note created successfully!');
    expect(NOTEBOOK_TEXT.addFailed).toBe('Add to Notes failed! Please contact us!');
    expect(NOTEBOOK_TEXT.savedFromChat('needl')).toBe('Saved to needl Note!');
  });

  it('keeps only safe links', () => {
    expect(safeNoteHref('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeNoteHref('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(safeNoteHref('/preview/rbi/d1?pageNumber=2')).toBe('/preview/rbi/d1?pageNumber=2');
    expect(safeNoteHref('/notebooks/nb-1')).toBe('/notebooks/nb-1');
    expect(safeNoteHref('javascript:alert(1)')).toBeNull();
    expect(safeNoteHref('data:text/html,<b>x</b>')).toBeNull();
    expect(safeNoteHref('//evil.example.com')).toBeNull();
    expect(safeNoteHref('/\\evil.example.com')).toBeNull();
    expect(safeNoteHref('/settings/user-settings')).toBeNull();
    expect(
      sanitizeNoteDocument([
        { type: 'paragraph', children: [{ text: 'x', href: 'javascript:void(0)', bold: true }] },
      ]),
    ).toEqual([{ type: 'paragraph', children: [{ text: 'x', bold: true }] }]);
  });

  it('reads the document as the spec sends it (a JSON string) or as nodes, within bounds', () => {
    const nodes = [{ type: 'paragraph', children: [{ text: 'One.' }] }];
    expect(NoteDocumentInput.parse(JSON.stringify(nodes))).toEqual(nodes);
    expect(NoteDocumentInput.parse(nodes)).toEqual(nodes);
    expect(NoteDocumentInput.safeParse('{').error?.issues[0].message).toBe(
      'document must be a JSON array of rich-text nodes',
    );
    const long = [{ type: 'paragraph', children: [{ text: 'x'.repeat(10_001) }] }];
    expect(NoteDocumentInput.safeParse(long).error?.issues[0].message).toBe(
      'text must be at most 10000 characters',
    );
    const many = Array.from({ length: 21 }, () => ({
      type: 'paragraph',
      children: [{ text: 'x'.repeat(10_000) }],
    }));
    expect(NoteDocumentInput.safeParse(many).error?.issues[0].message).toBe(
      'document holds at most 200000 characters',
    );
    expect(CreateNoteBody.safeParse({ name: 'n', extra: 1 }).success).toBe(false);
    expect(CreateNoteBody.parse({ name: '  Two   words ' }).name).toBe('Two words');
  });

  it('turns edited text into blocks, keeping the blocks whose text did not change', () => {
    const linked = {
      type: 'list-item' as const,
      children: [{ text: 'Source', href: '/preview/a/b' }],
    };
    expect(textToNoteDocument('New first.\r\n\r\nSource\n\n\n', [linked])).toEqual([
      { type: 'paragraph', children: [{ text: 'New first.' }] },
      linked,
    ]);
  });

  it('cuts the snippet at 1000 characters followed by "..."', () => {
    const doc = [{ type: 'paragraph' as const, children: [{ text: 'a'.repeat(1001) }] }];
    expect(noteSnippet(doc)).toBe(`${'a'.repeat(1000)}...`);
    expect(noteSnippet([{ type: 'paragraph', children: [{ text: 'short' }] }])).toBe('short');
  });
});
