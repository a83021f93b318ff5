export { UploadsPanel } from './uploads-panel';
