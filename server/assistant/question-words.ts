import { isStopWord, stem } from '../../contract/words';
import { nameWords } from '../search';

/**
 * The word lists a question is read with (question.ts): term groups (words filings use for the
 * same thing), filler words asked that carry no answer, and words no organisation is called by.
 */

/** A word or phrase a sentence may hold for a term, as stems. */
export type Alternative = string[];

export type TermGroup = {
  /** The question's word. */
  word: string;
  alternatives: Alternative[];
  /** The words, as written, that the engine is asked for (it stems them itself). */
  search: string[];
};

// ---------------------------------------------------------------------------------------------
// Words that say the same in filings. Each line is one group: a question word of it matches any.

const SYNONYM_LINES = `
employee employees employ employs employed employing people person persons headcount workforce staff personnel >worker >workers >work|full-time employees|team members
headquarters headquartered headquarter >based >located >hq >office|head office|principal executive offices|principal executive office|corporate headquarters|world headquarters|based in|located in
revenue revenues sales turnover >earn >earned >earns|net sales|net revenues|total revenues
inception >incorporated >established >organized >organised >found >founded >founding >founder =founded =founder =founders|company was formed|was incorporated|were incorporated|incorporated in|was established|were established|established in|was organized
competitor competitors compete competes competing competition competitive rival rivals
customer customers client clients oem oems >buyer >buyers
debt borrowings borrowing indebtedness notes loans loan|credit facility|senior notes|term loan
grow grew growth grown grows growing increase increased increases rise rose risen rising rises gain higher decrease decreased decreases decline declined declines fell fall falls fallen drop dropped lower change changed
profit profits income earnings|net income
largest biggest top greatest >major >principal
share percentage percent portion proportion fraction accounted %
segment segments division divisions|reportable segments|operating segments|business units
backlog|remaining performance obligations|order backlog
end ends ended ending close closes
exposure exposed expose sensitivity sensitive hypothetical
currency currencies|foreign exchange|exchange rate|exchange rates
indicator indicators indicative predictor predictors predictive predict predicts guide guides
reliable reliably dependable good
drive drives hdd hdds|hard disk drive|hard disk drives|hard drive|hard drives
hard hdd hdds
`;

/** Words asked that carry no answer of their own (the figure or the filer is the answer). */
export const FILLER = new Set(
  `company companies firm firms corporation business total overall amount number numbers much
  many approximately approximate roughly about report reported reports reporting say says said
  disclose disclosed discloses state stated states mention describe detail according have has had
  did does do get got come came comes generate generated generating make made current currently
  last latest year years fiscal annual annually annualized period periods its it their there
  value figure level levels size big large small stand stood see work works working versus vs
  compared compare comparison prior previous outstanding consolidated net main primary carry
  carries hold holds owe owes expect expects spend spends pay pays principal major leading bigger
  larger smaller higher lower more less fewer faster slower better worse happen happens happened
  happening filing filings form forms risk risks kind kinds type types sort sorts balance balances
  over fast faster quickly swing swings move moves movement movements fluctuation fluctuations volatility think
  thinks treat treats believe believes consider considers regard regards view views`.split(/\s+/),
);

/**
 * Each line: words, then "|" phrases. A word marked ">" only leads a question to the group
 * ("based" asks where the headquarters are) and is not looked for in sentences, where it
 * means something else too ("based on NAND flash").
 */
const groupsByStem = new Map<string, { alternatives: Alternative[]; search: string[] }>();
for (const line of SYNONYM_LINES.split('\n')) {
  if (!line.trim()) continue;
  const [words, ...phrases] = line.split('|');
  const all = words.trim().split(/\s+/);
  // "=founded": the word as written, where its stem is another word's too ("found").
  const asWords = (w: string) =>
    w === '%' ? ['%'] : w.startsWith('=') ? [w] : nameWords(w).map(stem);
  const kept = all.filter((w) => !w.startsWith('>') && w !== '%').map((w) => w.replace(/^=/, ''));
  const alternatives: Alternative[] = [
    ...all.filter((w) => !w.startsWith('>')).map(asWords),
    ...phrases.map((p) => nameWords(p).map(stem)),
  ].filter((a) => a.length > 0);
  const search = [
    ...kept.flatMap(nameWords),
    ...phrases.flatMap((p) => nameWords(p).filter((w) => w.length > 3 && !isStopWord(w))),
  ];
  for (const w of all) {
    const key = asWords(w.replace(/^[>=]/, ''));
    if (key.length !== 1) continue;
    const existing = groupsByStem.get(key[0]);
    groupsByStem.set(
      key[0],
      existing
        ? {
            alternatives: [...existing.alternatives, ...alternatives],
            search: [...existing.search, ...search],
          }
        : { alternatives, search },
    );
  }
}

export const groupOf = (word: string): TermGroup => {
  const s = stem(word);
  const known = groupsByStem.get(s) ?? { alternatives: [[s]], search: [word] };
  const seen = new Set<string>();
  return {
    word,
    alternatives: known.alternatives.filter((a) => {
      const k = a.join(' ');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    }),
    search: [...new Set([word, ...known.search])],
  };
};

// ---------------------------------------------------------------------------------------------
// Capitalised words that are no organisation.

const NOT_ORGANISATION = new Set(
  `what which who whom whose when where why how is are was were do does did can could would
  should will shall may might tell give show list compare summarize summarise explain describe
  find please i i'm me my we our you your the a an in on at of for and or vs versus between
  according did has have had if by from to with about over under after before during
  january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
  saturday sunday q1 q2 q3 q4 h1 h2 fy ceo cfo coo cto chairman board directors company
  companies group inc corp ltd plc llc item items form part annual report reports risk risks
  factors gaap ebitda ebit eps roic roe roa roi capex opex r d sg a m fx usd eur gbp jpy cny inr
  chf aud cad dollar dollars euro euros yen yuan renminbi rupee rupees pound sterling libor
  sofr treasury treasuries fed federal reserve sec irs ftc doj fda epa ec eu uk us usa u s un
  imf ai ml esg ipo covid ukraine russia china india japan germany france italy spain canada
  mexico brazil argentina chile peru colombia australia korea taiwan singapore malaysia
  indonesia thailand vietnam philippines israel turkey egypt nigeria kenya africa europe asia
  america americas emea apac latin north south east west western eastern northern southern
  central middle greater pacific atlantic netherlands ireland switzerland sweden norway
  denmark finland belgium austria poland hong kong macau new zealand saudi arabia uae dubai
  qatar kingdom states united britain england scotland wales london paris tokyo beijing shanghai
  shenzhen mumbai delhi bangalore bengaluru singapore sydney toronto vancouver berlin frankfurt
  amsterdam zurich geneva dublin seoul taipei bangkok jakarta manila california texas new york
  florida washington oregon nevada arizona colorado utah illinois ohio michigan georgia
  virginia carolina massachusetts pennsylvania jersey tennessee minnesota wisconsin missouri
  indiana kentucky louisiana alabama mississippi oklahoma kansas iowa nebraska idaho montana
  wyoming dakota alaska hawaii maine vermont hampshire connecticut rhode island delaware
  maryland arkansas mexico silicon valley bay area beaverton memphis cupertino san jose
  francisco santa clara diego los angeles chicago boston seattle austin dallas houston atlanta
  miami denver phoenix portland nasdaq nyse lse tsx asx bse nse english internet web cloud
  software hardware ssd hdd nand dram flash covid-19 pandemic`.split(/\s+/),
);

/** A word no organisation is called by alone: places, months, finance words (lower case). */
export const isNotOrganisation = (word: string) => NOT_ORGANISATION.has(word);
