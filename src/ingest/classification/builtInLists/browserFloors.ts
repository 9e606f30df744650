/**
 * Built-in `browser-floors.txt`: the oldest major version of each browser still counted as a
 * person's. Agents below a floor are mostly scripts that copied an old agent string; the few
 * people left on such versions can no longer run much of the web. A floor of `*` marks every
 * version. Browsers not listed are never outdated. Rationale per floor in docs/classification.md.
 */
export const BUILT_IN_BROWSER_FLOORS = `
Chrome             80   # 2020; the final Chrome of Android 4.4 is 81
Firefox            78   # 2020 ESR; the final Firefox of macOS 10.9–10.11
Safari             12   # 2018; iOS 12 still runs on iPhone 5s / 6
Microsoft Edge     79   # the first Chromium Edge; EdgeHTML (12–18) was retired in 2021
Internet Explorer  *    # retired in 2022
Opera              60   # 2019
Samsung Internet   10   # 2019
Yandex Browser     20   # 2020
UC Browser         12   # 2018
`;
