/**
 * The people domain's tables, merged into the Database interface of db/schema.ts.
 * people: one row per person of a user. people_contacts: one row per contact, a contact (its
 * source and lower-cased id) belonging to one person of the user at most.
 */
declare module '../db/schema' {
  interface Database {
    people: {
      user_id: string;
      id: string;
      name: string;
      /** HIGH, MEDIUM or LOW. */
      priority: string;
      created_at: string;
      updated_at: string;
    };
    people_contacts: {
      user_id: string;
      person_id: string;
      source: string;
      /** The contact id lower-cased: the key a contact is found by. */
      contact_key: string;
      contact_id: string;
      contact_name: string;
      /** Its place in the person's list. */
      position: number;
    };
  }
}

export {};
