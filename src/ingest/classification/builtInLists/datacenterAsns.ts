/**
 * Built-in `datacenter-asns.txt`: autonomous systems of hosting and cloud providers, whose
 * address ranges (from @ip-location-db/asn) mark a visit as `datacenter_ip`. Written for this
 * project; each organisation name was checked against the package's data (2026-06 build).
 *
 * Deliberately absent, because real people browse from them:
 * - 15169 Google LLC: Googlebot is caught by its agent, and the AS also carries Google's
 *   consumer-facing relays and public DNS; Google Cloud customers are on 396982 and 19527.
 * - 13335 Cloudflare, 36183 / 20940 / 16625 Akamai, 54113 Fastly: they egress iCloud Private
 *   Relay, Cloudflare WARP and browser VPNs. (Linode, Akamai's cloud, is on 63949 and listed.)
 * - 35540 OVH's consumer telecom arm, and transit carriers such as 174 Cogent.
 */
export const BUILT_IN_DATACENTER_ASNS = `
# Amazon Web Services
16509   # Amazon.com, Inc. (AWS regions)
14618   # Amazon.com, Inc. (AWS us-east-1)
8987    # Amazon Data Services Ireland Ltd
9059    # Amazon Data Services Ireland Ltd
38895   # Amazon.com Tech Telecom
7224    # Amazon.com, Inc.

# Google Cloud
396982  # Google LLC (Google Cloud Platform)
19527   # Google LLC (Google Cloud)
36040   # Google LLC (Google Cloud services)
139070  # Google Asia Pacific Pte. Ltd. (cloud)

# Microsoft Azure
8075    # Microsoft Corporation (Azure and Microsoft services)
8068    # Microsoft Corporation
8069    # Microsoft Corporation
8070    # Microsoft Corporation
12076   # Microsoft Corporation (Azure ExpressRoute)
3598    # Microsoft Corporation

# Other large clouds
31898   # Oracle Corporation (Oracle Cloud)
36351   # IBM Cloud (SoftLayer)
45102   # Alibaba (US) Technology Co., Ltd. (Alibaba Cloud)
37963   # Hangzhou Alibaba Advertising Co., Ltd. (Alibaba Cloud China)
45090   # Shenzhen Tencent Computer Systems (Tencent Cloud)
132203  # Shenzhen Tencent Computer Systems (Tencent Cloud international)
55990   # Huawei Cloud Service data center
136907  # HUAWEI INTERNATIONAL PTE. LTD. (Huawei Cloud)
38365   # Beijing Baidu Netcom (Baidu Cloud)
59019   # Beijing Kingsoft Cloud
135377  # UCLOUD Information Technology (HK)
138915  # Kaopu Cloud HK Limited
200350  # Yandex.Cloud LLC

# Developer clouds and virtual servers
14061   # DigitalOcean, LLC
63949   # Akamai Technologies (Linode / Akamai Connected Cloud)
20473   # The Constant Company (Vultr, formerly Choopa)
24940   # Hetzner Online GmbH
213230  # Hetzner Online GmbH (Hetzner Cloud)
212317  # Hetzner Online GmbH (Hetzner Cloud US)
16276   # OVH SAS
12876   # Scaleway SAS
51167   # Contabo GmbH
40021   # Contabo Inc.
141995  # Contabo Asia Private Limited
202053  # UpCloud Ltd
36007   # Kamatera, Inc.
197540  # netcup GmbH
54825   # Packet Host, Inc. (Equinix Metal)
396356  # Latitude.sh
36236   # NetActuate, Inc

# Hosting and dedicated servers
60781   # LeaseWeb Netherlands B.V.
28753   # Leaseweb Deutschland GmbH
16265   # LeaseWeb Network B.V.
30633   # Leaseweb USA, Inc.
7203    # Leaseweb USA, Inc.
59253   # Leaseweb Singapore
8560    # IONOS SE
47583   # Hostinger International Limited
26496   # GoDaddy.com, LLC
398101  # GoDaddy.com, LLC
46606   # Unified Layer (Bluehost)
36352   # HostPapa (formerly ColoCrossing)
54290   # HostPapa (Hostwinds)
27357   # Rackspace Hosting
19994   # Rackspace Hosting
32244   # Liquid Web, L.L.C
55293   # A2 Hosting, Inc.
22612   # Namecheap, Inc.
19318   # Interserver, Inc
32097   # WholeSale Internet, Inc.
29802   # HIVELOCITY, Inc.
61317   # Hivelocity Inc
22611   # InMotion Hosting, Inc.
26347   # New Dream Network (DreamHost)
19871   # Network Solutions, LLC
40676   # Psychz Networks
8100    # QuadraNet Enterprises LLC
46844   # Sharktech
53667   # FranTech Solutions (BuyVM)
25820   # IT7 Networks Inc
35916   # MULTACOM CORPORATION
18978   # Enzu Inc
11878   # tzulo, inc.
63023   # GTHost
14956   # RouterHosting LLC
20454   # SECURED SERVERS LLC
54600   # PEG TECH INC
40065   # CNSERVERS LLC
62904   # Eonix Corporation
53755   # Input Output Flood LLC
46475   # Limestone Networks, Inc.
25653   # FortressITX
23033   # Wowrack.com
21859   # Zenlayer Inc
3223    # Voxility LLP

# European hosting
9009    # M247 Europe SRL
60068   # Datacamp Limited (CDN77)
212238  # Datacamp Limited
199524  # G-Core Labs S.A.
62240   # Clouvider Limited
57043   # HOSTKEY B.V.
49981   # WorldStream B.V.
43350   # NForce Entertainment B.V.
50673   # Serverius Holding B.V.
51852   # Private Layer INC
3214    # xTom GmbH
29066   # velia.net Internetdienste GmbH
30083   # velia.net
31034   # Aruba S.p.A.
35425   # IOMART HOSTING LIMITED
49505   # JSC Selectel
9123    # JSC TIMEWEB
197695  # REG.RU
210644  # AEZA INTERNATIONAL LTD
200019  # ALEXHOST SRL
47447   # 23M GmbH
34549   # meerfarbig GmbH & Co. KG

# Asia-Pacific hosting
9370    # SAKURA Internet Inc.
7684    # SAKURA Internet Inc.
203020  # HostRoyale Technologies Pvt Ltd
133199  # SonderCloud Limited
`;
