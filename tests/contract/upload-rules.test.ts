import { describe, expect, it } from 'vitest';
import { checkFiles, fileProblem, fileTypeOf, uploadsSettled } from '../../contract/upload-files';
import { UploadCompletePutBody, UploadInitBody, type UploadConfig } from '../../contract/uploads';

const config: UploadConfig = {
  file_count_limit: 3,
  file_size_limit: 2,
  file_types: ['application/pdf', 'text/markdown', 'text/plain'],
  file_name_suffixes: [],
  allow_folder_upload: false,
  mime_types: { 'application/pdf': 'pdf' },
};

describe('file type from the extension (001 §5)', () => {
  it('keeps a given type, else md becomes text/markdown, else octet-stream', () => {
    expect(fileTypeOf({ name: 'a.pdf', type: 'application/x-given' })).toBe('application/x-given');
    expect(fileTypeOf({ name: 'notes.MD', type: '' })).toBe('text/markdown');
    expect(fileTypeOf({ name: 'model.xlsx', type: '' })).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(fileTypeOf({ name: 'README', type: '' })).toBe('application/octet-stream');
    expect(fileTypeOf({ name: 'tool.exe', type: '' })).toBe('application/octet-stream');
  });
});

describe('the four checks, in order, with the spec words', () => {
  it('1 type', () => {
    expect(fileProblem({ name: 'tool.exe', size: 10, type: '' }, config)).toBe(
      'File tool.exe type: application/octet-stream not allowed.',
    );
  });
  it('2 size in MB (bytes / 1048576)', () => {
    expect(fileProblem({ name: 'big.pdf', size: 2 * 1048576, type: '' }, config)).toBeNull();
    expect(fileProblem({ name: 'big.pdf', size: 2 * 1048576 + 1, type: '' }, config)).toBe(
      'File big.pdf size exceeds the limit of 2 MB.',
    );
  });
  it('type comes before size', () => {
    expect(fileProblem({ name: 'big.exe', size: 9 * 1048576, type: '' }, config)).toBe(
      'File big.exe type: application/octet-stream not allowed.',
    );
  });
  it('3 suffixes, a trailing .pdf ignored', () => {
    const suffixed = { ...config, file_name_suffixes: ['_10K', '_AR'] };
    expect(fileProblem({ name: 'acme_10K.pdf', size: 1, type: '' }, suffixed)).toBeNull();
    expect(fileProblem({ name: 'acme_AR', size: 1, type: 'text/plain' }, suffixed)).toBeNull();
    expect(fileProblem({ name: 'acme.pdf', size: 1, type: '' }, suffixed)).toBe(
      'File acme.pdf name should end with one of the following suffixes: _10K, _AR.',
    );
  });
  it('4 folders', () => {
    expect(fileProblem({ name: 'dir', size: 0, type: 'text/plain', isFolder: true }, config)).toBe(
      'Folder upload is not allowed.',
    );
    expect(
      fileProblem(
        { name: 'dir', size: 0, type: 'text/plain', isFolder: true },
        { ...config, allow_folder_upload: true },
      ),
    ).toBeNull();
  });
  it('no type list: any type passes', () => {
    expect(fileProblem({ name: 'x.bin', size: 1, type: '' }, { ...config, file_types: [] })).toBe(
      null,
    );
  });
});

describe('a drop next to existing attachments', () => {
  it('leaves out duplicates by name and size, checks the rest', () => {
    const out = checkFiles(
      [
        { name: 'a.pdf', size: 10, type: '' },
        { name: 'a.pdf', size: 11, type: '' },
        { name: 'b.exe', size: 1, type: '' },
        { name: 'a.pdf', size: 11, type: '' },
      ],
      [{ name: 'a.pdf', size: 10 }],
      { ...config, file_count_limit: 5 },
    );
    expect(out.accepted).toEqual([{ name: 'a.pdf', size: 11, type: 'application/pdf' }]);
    expect(out.duplicates).toEqual([
      { name: 'a.pdf', size: 10, type: '' },
      { name: 'a.pdf', size: 11, type: '' },
    ]);
    expect(out.errors).toEqual(['File b.exe type: application/octet-stream not allowed.']);
  });
  it('refuses a drop past the count limit', () => {
    const out = checkFiles(
      [
        { name: 'a.pdf', size: 1, type: '' },
        { name: 'b.pdf', size: 1, type: '' },
      ],
      [
        { name: 'c.pdf', size: 1 },
        { name: 'd.pdf', size: 1 },
      ],
      config,
    );
    expect(out).toEqual({
      accepted: [],
      errors: ['You can only upload 3 files at a time.'],
      duplicates: [],
    });
  });
  it('drops a report’s excess files with the report message', () => {
    const out = checkFiles(
      [
        { name: 'a.pdf', size: 1, type: '' },
        { name: 'b.pdf', size: 1, type: '' },
      ],
      [
        { name: 'c.pdf', size: 1 },
        { name: 'd.pdf', size: 1 },
      ],
      config,
      'report',
    );
    expect(out.accepted).toEqual([{ name: 'a.pdf', size: 1, type: 'application/pdf' }]);
    expect(out.errors).toEqual(['Only 3 files can be uploaded for a report.']);
  });
});

describe('request shapes', () => {
  it('upload init needs an id on every file', () => {
    const bad = UploadInitBody.safeParse({
      source: 'needldrive',
      files: [{ name: 'a.pdf', mime_type: 'application/pdf' }],
    });
    expect(bad.success).toBe(false);
    expect(
      UploadInitBody.safeParse({
        source: 'needldrive',
        files: [{ id: 'f1', name: 'a.pdf', mime_type: 'application/pdf' }],
      }).success,
    ).toBe(true);
  });
  it('PUT complete takes add or remove only', () => {
    const file = {
      bucket: 'b',
      key: 'k',
      metadata: { name: 'a.pdf', mime_type: 'application/pdf', id: 'f1' },
    };
    const base = { files: [file], source: 'needldrive', feed_id: 'feed1' };
    expect(UploadCompletePutBody.safeParse({ ...base, action: 'remove' }).success).toBe(true);
    expect(UploadCompletePutBody.safeParse({ ...base, action: 'rename' }).success).toBe(false);
  });
  it('polling may stop only when every file is COMPLETED or FAILED', () => {
    expect(uploadsSettled([{ status: 'COMPLETED' }, { status: 'FAILED' }])).toBe(true);
    expect(uploadsSettled([{ status: 'COMPLETED' }, { status: 'PROCESSING' }])).toBe(false);
  });
});
