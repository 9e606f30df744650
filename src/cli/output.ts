/** How a command reports: JSON with --json, otherwise short human-readable lines. */
export interface Output {
  json: boolean;
  result(value: unknown, human: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, human) {
      process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);
    },
  };
}

export const iso = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());
