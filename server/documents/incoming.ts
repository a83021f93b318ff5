import type { CategoryTab, Market } from '../../contract/documents';

/** One document as ingestion (or the demo corpus) hands it over. */
export type IncomingDocument = {
  dedupe_key: string;
  title: string | null;
  url: string | null;
  unix: number | null;
  html: string | null;
  text: string | null;
  thumbnail?: string | null;
  company_name?: string | null;
  security_code?: string | null;
  security_id?: string | null;
  category?: string | null;
  secondary_category?: string | null;
  categories?: string[];
  category_tab?: CategoryTab;
  market?: Market | null;
  mime_type?: string;
};
