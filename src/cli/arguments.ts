import { InvalidArgumentError } from 'commander';

/** Commander argument parser for ids: a positive whole number or a sentence saying why not. */
export function idArgument(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`${what} must be a positive whole number.`);
    return Number(value);
  };
}

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive whole number.');
  return Number(value);
}

export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
