import { describe, expect, it } from 'vitest';
import { storedEventsStatement } from '../../src/query/run/sampling.js';

describe('storedEventsStatement', () => {
  it('counts the parts of events on one node', () => {
    expect(storedEventsStatement(null)).toBe("SELECT sum(rows) AS events FROM system.parts WHERE active AND database = currentDatabase() AND table = 'events'");
  });

  it('counts the parts of events_local on one replica of every shard of a cluster', () => {
    // `events` is the Distributed table there and has no parts: counting it kept sampling off.
    const sql = storedEventsStatement('analytics');
    expect(sql).toBe(
      "SELECT sum(rows) AS events FROM cluster('analytics', system.parts) WHERE active AND database = currentDatabase() AND table = 'events_local'",
    );
    // clusterAllReplicas would count each row once per replica.
    expect(sql).not.toContain('clusterAllReplicas');
  });
});
