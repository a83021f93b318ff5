export { UploadsPanel } from './uploads-panel';
export { DocumentActions } from './document-actions';
export { PdfViewer } from './pdf-viewer';
export { isUploadedDocument, PDF_MIME_TYPE } from './document-texts';
export { shortName, statusText } from './upload-rules';
