import { CLASSIFICATIONS, type Classification, isClassification } from '../../classifications.js';
import { invalid } from '../../errors.js';
import type { MetaDb } from './database.js';

/** The classification reasons this site counts in its reports (empty: the default, all excluded). */
export async function includedClassifications(db: MetaDb, siteId: number): Promise<string[]> {
  const row = await db.selectFrom('sites').select('included_classifications').where('id', '=', siteId).executeTakeFirst();
  return (row?.included_classifications ?? '').split(' ').filter(isClassification);
}

/** Replaces the set of reasons put back into reports; unknown reasons are refused by name. */
export async function setIncludedClassifications(db: MetaDb, siteId: number, reasons: readonly string[], now: number): Promise<Classification[]> {
  const unknown = reasons.find((reason) => !isClassification(reason));
  if (unknown !== undefined) {
    throw invalid('invalid_classification', `"${unknown}" is not a classification reason; choose from ${CLASSIFICATIONS.join(', ')}.`);
  }
  // Stored in the closed list's order, so equal sets are equal strings.
  const included = CLASSIFICATIONS.filter((reason) => reasons.includes(reason));
  await db
    .updateTable('sites')
    .set({ included_classifications: included.join(' '), updated_at: now })
    .where('id', '=', siteId)
    .execute();
  return included;
}

/** The stored tracker options as saved (a JSON object); their meaning lives with the snippet. */
export async function trackerScriptConfiguration(db: MetaDb, siteId: number): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('sites').select('tracker_script_configuration').where('id', '=', siteId).executeTakeFirst();
  const parsed: unknown = JSON.parse(row?.tracker_script_configuration ?? '{}');
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

export async function setTrackerScriptConfiguration(db: MetaDb, siteId: number, configuration: Record<string, unknown>, now: number): Promise<void> {
  await db
    .updateTable('sites')
    .set({ tracker_script_configuration: JSON.stringify(configuration), updated_at: now })
    .where('id', '=', siteId)
    .execute();
}
