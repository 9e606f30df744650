/** The process id in a lease holder's name (`hostname:pid:random`, src/stores/meta/leases.ts NODE_ID), to find the node holding it. */
export function holderPid(holder: string | undefined): number | undefined {
  const match = /:(\d+):[0-9a-f]{8}(\/.*)?$/.exec(holder ?? '');
  return match ? Number(match[1]) : undefined;
}
