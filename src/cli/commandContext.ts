import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { MetaStore } from '../stores/meta/database.js';
import type { Output } from './output.js';

/** What a metadata command runs with: the program (src/cli/program.ts) opens the store and hands it over. */
export interface CommandContext {
  meta: MetaStore;
  clock: Clock;
  /** The service's configuration (BASE_URL for links the CLI prints). */
  config: Config;
  out: Output;
}
