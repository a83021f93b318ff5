import { describe, expect, it } from 'vitest';
import { ChangePasswordBody, UpdateProfileBody } from '../../contract/auth';
import {
  contactKey,
  ContactInfoQuery,
  CreatePersonBody,
  EditPersonBody,
  personNameProblem,
} from '../../contract/people';
import { MergeTagsBody, RenameTagBody } from '../../contract/tags';

const firstMessage = (result: {
  success: boolean;
  error?: { issues: Array<{ message: string }> };
}) => (result.success ? null : result.error!.issues[0].message);

describe('people rules (002 §3-4, §9)', () => {
  it('takes a person trimmed, MEDIUM unless said, with contacts trimmed and sources lower-cased', () => {
    expect(
      CreatePersonBody.parse({
        people_name: '  Ravi ',
        contacts: [{ contact_id: ' R@x.com ', contact_name: ' Ravi ', contact_source: ' Email ' }],
      }),
    ).toEqual({
      people_name: 'Ravi',
      contacts: [{ contact_id: 'R@x.com', contact_name: 'Ravi', contact_source: 'email' }],
    });
    expect(personNameProblem('   ')).toBe('name must not be empty');
    expect(personNameProblem('x'.repeat(121))).toBe('name must be at most 120 characters');
    expect(personNameProblem(' x ')).toBeNull();
  });

  it('knows the priorities HIGH, MEDIUM and LOW only', () => {
    expect(EditPersonBody.parse({ priority: 'HIGH' })).toEqual({ priority: 'HIGH' });
    expect(firstMessage(EditPersonBody.safeParse({ priority: 'high' }))).toBe(
      'priority must be one of HIGH, MEDIUM, LOW',
    );
    expect(firstMessage(EditPersonBody.safeParse({}))).toBe(
      'give name, priority or contacts to change',
    );
  });

  it('refuses one contact twice in a person (same source, id case-insensitively)', () => {
    const c = (id: string) => ({ contact_id: id, contact_name: '', contact_source: 'email' });
    expect(
      firstMessage(EditPersonBody.safeParse({ contacts: [c('a@x.com'), c('A@X.com ')] })),
    ).toBe('contacts holds A@X.com (email) twice');
    expect(contactKey({ contact_source: 'Email', contact_id: ' A@X.com' })).toBe(
      'email\u0000a@x.com',
    );
  });

  it('reads contact_info contacts from JSON', () => {
    expect(
      ContactInfoQuery.parse({ source: 'email', contacts: '[{"contact_id":"a@x.com"}]' }),
    ).toEqual({ source: 'email', contacts: [{ contact_id: 'a@x.com' }] });
    expect(firstMessage(ContactInfoQuery.safeParse({ source: 'email', contacts: '{' }))).toBe(
      'contacts must be a JSON array',
    );
    expect(firstMessage(ContactInfoQuery.safeParse({ source: 'email', contacts: '{}' }))).toBe(
      'contacts must be a JSON array',
    );
  });
});

describe('user settings rules', () => {
  it('wants a name, and a new password that differs from the current one', () => {
    expect(UpdateProfileBody.parse({ name: ' Ada ' })).toEqual({ name: 'Ada' });
    expect(firstMessage(UpdateProfileBody.safeParse({ name: ' ' }))).toBe('name is required');
    expect(
      firstMessage(
        ChangePasswordBody.safeParse({ current_password: 'same-one-1', password: 'same-one-1' }),
      ),
    ).toBe('password must differ from the current password');
    expect(
      firstMessage(ChangePasswordBody.safeParse({ current_password: '', password: 'long-enough' })),
    ).toBe('current_password is required');
  });
});

describe('Tags Manager rules', () => {
  it('renames to a trimmed valid name and merges two different tags', () => {
    expect(RenameTagBody.parse({ tag_id: 't1', tag: ' Iron ' })).toEqual({
      tag_id: 't1',
      tag: 'Iron',
    });
    expect(firstMessage(MergeTagsBody.safeParse({ from: 't1', into: 't1' }))).toBe(
      'into must differ from from',
    );
  });
});
