/** Issue 43, notices: the pure rules a send applies (escalation bounds, the sender team, the recipients). */
import { describe, expect, it } from 'vitest';
import {
  durationSeconds,
  escalationProblems,
  senderTeamProblems,
} from '#functions/notifications/rules/notice';
import {
  namedUserIds,
  recipientCount,
  recipientProblems,
} from '#functions/notifications/rules/notice-recipients';

const user = { kind: 'user', id: 'u1' } as const;
const account = { kind: 'service-account', id: 's1' } as const;

describe('escalate_after', () => {
  it('reads weeks, days, hours, minutes and seconds; months, years and malformed text are not durations', () => {
    expect(durationSeconds('PT2H')).toBe(7200);
    expect(durationSeconds('P1DT30M')).toBe(86_400 + 1800);
    expect(durationSeconds('P1W')).toBe(604_800);
    for (const text of ['P1M', 'P1Y', 'PT', 'P', '2h', 'PT1.5H', 'pt2h'])
      expect(durationSeconds(text)).toBeNull();
  });

  it('is only for a notice requiring acknowledgement, from 15 minutes to 7 days inclusive', () => {
    expect(escalationProblems(true, undefined)).toEqual([]);
    expect(escalationProblems(true, 'PT15M')).toEqual([]);
    expect(escalationProblems(true, 'P7D')).toEqual([]);
    for (const text of ['PT14M59S', 'P7DT1S', 'P1M'])
      expect(escalationProblems(true, text)[0]?.pointer).toBe('/data/attributes/escalate_after');
    expect(escalationProblems(false, 'PT2H')).toHaveLength(1);
  });
});

describe('sender_team', () => {
  it('is required with requires_ack, a team of the organisation, and the sending user’s own', () => {
    expect(senderTeamProblems(true, undefined, null, user)[0]?.pointer).toBe(
      '/data/relationships/sender_team',
    );
    expect(senderTeamProblems(false, undefined, null, user)).toEqual([]);
    expect(senderTeamProblems(false, 't1', null, user)[0]?.detail).toMatch(/No such team/);
    expect(senderTeamProblems(true, 't1', ['u2'], user)[0]?.detail).toMatch(/not a member/);
    expect(senderTeamProblems(true, 't1', ['u1'], user)).toEqual([]);
    // A service account belongs to no team: any of the organisation's.
    expect(senderTeamProblems(true, 't1', ['u2'], account)).toEqual([]);
  });
});

describe('recipients', () => {
  const found = { users: new Set(['u1', 'u2']), teams: new Set(['t1']) };

  it('a notice names someone, and each user and team it names is found in the organisation', () => {
    expect(recipientProblems({ users: [], teams: [], everyone: false }, found)[0]?.pointer).toBe(
      '/data/attributes/recipients',
    );
    expect(recipientProblems({ users: [], teams: [], everyone: true }, found)).toEqual([]);
    expect(
      recipientProblems({ users: ['u1', 'x'], teams: ['t1', 'y'], everyone: false }, found).map(
        (p) => p.pointer,
      ),
    ).toEqual(['/data/attributes/recipients/users/1', '/data/attributes/recipients/teams/1']);
  });

  it('resolves to each active user once; everyone is the organisation’s active users', () => {
    const membersOf = new Map([['t1', ['u1', 'u3', 'u4']]]);
    const spec = { users: ['u1', 'u2', 'u1'], teams: ['t1'], everyone: false };
    expect(namedUserIds(spec, membersOf)).toEqual(['u1', 'u2', 'u3', 'u4']);
    const isActive = (id: string) => id !== 'u4';
    expect(recipientCount(spec, { activeUsers: 50_000, membersOf, isActive })).toBe(3);
    expect(recipientCount({ ...spec, everyone: true }, { activeUsers: 50_000, membersOf, isActive })).toBe(
      50_000,
    );
  });
});
