import { flagFile, useFlagFiles } from './places';

/**
 * A country's flag (ISO 3166-1 alpha-2) as a picture, beside its name wherever a country is
 * shown: drawn from an SVG, so every system shows it (Windows draws no flag emoji). Its room is
 * kept while it loads and for a code with no flag, so names stay in line.
 */
export function Flag({ code }: { code: string }) {
  useFlagFiles();
  const url = flagFile(code);
  if (!url) return <span className="flag" aria-hidden="true" />;
  return <img className="flag" src={url} alt="" width={18} height={12} decoding="async" />;
}
