import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../errors';
import { routesFor } from '../http/define';
import { detectType, pdfPageTables } from '../extract';
import { ownUpload, readStored } from './own';

const TYPE_NAMES = {
  docx: 'a Word file',
  pptx: 'a PowerPoint file',
  xlsx: 'an Excel file',
  txt: 'a text file',
  md: 'a Markdown file',
  doc: 'an old Word file',
  ppt: 'an old PowerPoint file',
  xls: 'an old Excel file',
} as const;

/** POST /ml/table-extraction (contract/extract.ts): the tables of a page of the caller's PDF. */
export const registerTableRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('extract', app, deps.product);
  on('tableExtraction', async (c, { body, auth }) => {
    const file = await ownUpload(c.var.db, auth.user.id, body.deeplink);
    if (!deps.storage)
      throw new ApiError(500, 'internal', 'file storage is not configured on this server');
    const bytes = await readStored(deps.storage, file.key);
    const type = detectType(bytes.subarray(0, 65536), file.name);
    if (type !== 'pdf') {
      throw new ApiError(
        400,
        'bad_request',
        `deeplink: table extraction reads PDF documents only; this document is ${type ? TYPE_NAMES[type] : 'not a PDF'}`,
      );
    }
    const r = await pdfPageTables(bytes, body.page_number);
    if (!r.ok)
      throw new ApiError(
        r.status,
        'bad_request',
        r.status === 400 ? r.reason : `deeplink: ${r.reason}`,
      );
    return { results: { deeplink: body.deeplink, page_number: body.page_number, ...r.value } };
  });
};
