import { MIN_PASSWORD_LENGTH } from '@contracts/account';

/** The hint beside every field that chooses a new password, from the rule the server applies. */
export const NEW_PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters.`;
