/**
 * Built-in `automation.txt` and `bots.txt`: case-insensitive substrings of user agents, written
 * for this project. They add to isbot (which already knows the search, AI and preview crawlers)
 * the agents it lets through: scripted browsers, HTTP libraries and uptime monitors.
 */

/** Agents of browsers driven by a program: test runners, headless modes, page-speed tools. */
export const BUILT_IN_AUTOMATION_PATTERNS = `
headlesschrome
headless chrome
headlessedg
phantomjs
slimerjs
puppeteer
playwright
selenium
webdriver
chromedriver
geckodriver
cypress
nightmare
casperjs
zombie.js
htmlunit
jsdom/
chrome-lighthouse
lighthouse
pagespeed
gtmetrix
ylt chrome               # Yellow Lab Tools
ptst/                    # WebPageTest
browserless
apify
crawlee
gecko) code/             # Visual Studio Code's Electron fetch tool (AI agents)
gecko) trae/             # Trae AI IDE's Electron fetch tool
`;

/** Programs that fetch pages without a person: HTTP clients, monitors, link checkers. */
export const BUILT_IN_BOT_PATTERNS = `
# HTTP libraries and command-line clients
curl/
wget/
libcurl
python-requests
python-urllib
python-httpx
aiohttp
httpx/
go-http-client
okhttp
axios/
node-fetch
undici
got (https://github.com/sindresorhus/got)
java/
libwww-perl
lwp::simple
php/
guzzlehttp
faraday
httpie/
postmanruntime
insomnia/
powershell
winhttp
dart:io
reqwest/
rest-client
scrapy
httpclient
# Monitoring and uptime checks
uptimerobot
uptime-kuma
pingdom
statuscake
site24x7
hetrixtools
freshping
betteruptime
better stack
checkly
datadog
newrelicpinger
catchpoint
nagios
zabbix
blackbox-exporter
kube-probe
elb-healthchecker
googlehc
cloudflare-healthchecks
# Screenshot and preview services
miniature.io
tsm-turingos
`;
