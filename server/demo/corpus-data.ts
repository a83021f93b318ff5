/**
 * Word banks of the demo corpus (corpus.ts). Every company here is made up, with names, sectors
 * and codes shaped like real listings (BSE scrip codes are six digits from 500000; US filers
 * have ten-digit CIKs), so generated filings and news can never be mistaken for facts about a
 * real company.
 */

export type Company = {
  name: string;
  /** How news refers to it after the first mention. */
  short: string;
  sector: Sector;
  /** BSE scrip code, US ticker or NZX code. */
  code: string;
  /** Exchange symbol (India, NZ) or CIK (US). */
  id: string;
};

export type Sector =
  | 'Banking'
  | 'IT Services'
  | 'Pharmaceuticals'
  | 'Steel'
  | 'Energy'
  | 'Automobiles'
  | 'FMCG'
  | 'Telecom'
  | 'Semiconductors'
  | 'Insurance'
  | 'Media'
  | 'Infrastructure';

const india = (name: string, short: string, sector: Sector, code: number, id: string): Company => ({
  name,
  short,
  sector,
  code: String(code),
  id,
});
const us = (name: string, short: string, sector: Sector, ticker: string, cik: number): Company => ({
  name,
  short,
  sector,
  code: ticker,
  id: String(cik).padStart(10, '0'),
});

export const INDIAN_COMPANIES: readonly Company[] = [
  india('Deccan Commercial Bank Ltd', 'Deccan Bank', 'Banking', 532418, 'DECCANBK'),
  india('Sahyadri Finance Ltd', 'Sahyadri Finance', 'Banking', 541276, 'SAHYFIN'),
  india('Kaveri Infotech Ltd', 'Kaveri Infotech', 'IT Services', 526913, 'KAVERIINFO'),
  india('Nilgiri Software Services Ltd', 'Nilgiri Software', 'IT Services', 543104, 'NILGIRISW'),
  india('Aravalli Steel Industries Ltd', 'Aravalli Steel', 'Steel', 500972, 'ARAVSTEEL'),
  india('Konark Pharma Ltd', 'Konark Pharma', 'Pharmaceuticals', 524688, 'KONARKPH'),
  india('Vindhya Life Sciences Ltd', 'Vindhya Life', 'Pharmaceuticals', 543587, 'VINDHYA'),
  india('Bharat Urja Power Ltd', 'Bharat Urja', 'Energy', 533206, 'BHARATURJA'),
  india('Ganga Motors Ltd', 'Ganga Motors', 'Automobiles', 500841, 'GANGAMOT'),
  india('Malabar Consumer Products Ltd', 'Malabar Consumer', 'FMCG', 531162, 'MALABARCP'),
  india('Satpura Telecom Ltd', 'Satpura Telecom', 'Telecom', 532859, 'SATPURATEL'),
  india('Narmada Infrastructure Ltd', 'Narmada Infra', 'Infrastructure', 540047, 'NARMADAINF'),
  india('Himalaya General Insurance Ltd', 'Himalaya Insurance', 'Insurance', 542911, 'HIMGENINS'),
  india('Coromandel Media Networks Ltd', 'Coromandel Media', 'Media', 532774, 'COROMEDIA'),
];

export const US_COMPANIES: readonly Company[] = [
  us('Northwind Semiconductor Inc', 'Northwind', 'Semiconductors', 'NWSC', 1532047),
  us('Cascade Microsystems Corp', 'Cascade', 'Semiconductors', 'CSMC', 1614589),
  us('Harborview Financial Group Inc', 'Harborview', 'Banking', 'HBVF', 1093512),
  us('Ridgeline Bancorp Inc', 'Ridgeline', 'Banking', 'RDGB', 1410376),
  us('Bluestem Software Inc', 'Bluestem', 'IT Services', 'BLSW', 1720883),
  us('Meridian Therapeutics Inc', 'Meridian', 'Pharmaceuticals', 'MRDT', 1658210),
  us('Granite Peak Energy Corp', 'Granite Peak', 'Energy', 'GPEC', 1287745),
  us('Ironbridge Motors Inc', 'Ironbridge', 'Automobiles', 'IBMT', 1812066),
  us('Summit Household Brands Inc', 'Summit Household', 'FMCG', 'SMHB', 1155903),
  us('Lakeshore Communications Inc', 'Lakeshore', 'Telecom', 'LKSC', 1366218),
  us('Prairie Mutual Insurance Co', 'Prairie Mutual', 'Insurance', 'PRMI', 1049872),
  us('Silverscreen Media Holdings Inc', 'Silverscreen', 'Media', 'SLVM', 1763391),
];

export const NZ_COMPANIES: readonly Company[] = [
  india('Kauri Coast Energy Ltd', 'Kauri Coast', 'Energy', 0, 'KCE'),
  india('Southern Alps Dairy Ltd', 'Southern Alps', 'FMCG', 0, 'SAD'),
  india('Harbour City Telecom Ltd', 'Harbour City', 'Telecom', 0, 'HCT'),
].map((c) => ({ ...c, code: c.id }));

export const ANALYSTS = [
  'Priya Raman',
  'Arjun Mehta',
  'Kavita Nair',
  'Rohan Desai',
  'Sarah Whitfield',
  'Daniel Ortiz',
  'Emily Chen',
  'Marcus Webb',
];

export const BROKERS = [
  'Street Research',
  'Peninsula Securities',
  'Lighthouse Capital Research',
  'Westbrook Equities',
];

export const CITIES_IN = ['Mumbai', 'Bengaluru', 'New Delhi', 'Chennai', 'Hyderabad', 'Pune'];
export const CITIES_US = ['New York', 'San Francisco', 'Chicago', 'Boston', 'Austin', 'Seattle'];

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** What moves a sector's results, for bodies that read like an analyst wrote them. */
export const SECTOR_DRIVERS: Record<Sector, [string, string]> = {
  Banking: ['net interest margin', 'loan growth'],
  'IT Services': ['deal wins', 'constant-currency revenue growth'],
  Pharmaceuticals: ['US generics pricing', 'domestic formulations growth'],
  Steel: ['realisations per tonne', 'coking coal costs'],
  Energy: ['refining margins', 'power demand'],
  Automobiles: ['volume growth', 'commodity costs'],
  FMCG: ['rural demand', 'gross margin'],
  Telecom: ['average revenue per user', 'subscriber additions'],
  Semiconductors: ['data-centre demand', 'wafer pricing'],
  Insurance: ['new business premium', 'combined ratio'],
  Media: ['advertising revenue', 'subscription growth'],
  Infrastructure: ['order inflow', 'execution pace'],
};
