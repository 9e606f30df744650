export function languageFrom(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim() ?? '';
  return /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/.test(first) ? first : '';
}
