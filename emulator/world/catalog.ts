/**
 * The static catalogs the data world draws from: geography, networks, devices, players, content,
 * ads and custom tags. They are the emulator's invention (the spec names the fields, never the
 * values), chosen to look like a mid-size streaming service with a US-heavy audience. The lookup
 * endpoints of spec 4.8 answer these values, and saved-filter rules must spell values this way.
 */

/** The continents that occur (spec 2.2 `geo_info.continent`; lookup `continents`). */
export const CONTINENTS = ["North America", "South America", "Europe", "Asia", "Africa", "Oceania"] as const;
/** A continent name. */
export type Continent = (typeof CONTINENTS)[number];

/** A country: the `countries` lookup answers names; metrics filter on the ISO code (spec 4.7 geo_country_code). */
export interface Country {
  name: string;
  /** ISO 3166-1 alpha-2. */
  code: string;
  continent: Continent;
}

/** Countries that occur, about 25. */
export const COUNTRIES: readonly Country[] = [
  { name: "United States", code: "US", continent: "North America" },
  { name: "Canada", code: "CA", continent: "North America" },
  { name: "Mexico", code: "MX", continent: "North America" },
  { name: "Brazil", code: "BR", continent: "South America" },
  { name: "Argentina", code: "AR", continent: "South America" },
  { name: "Colombia", code: "CO", continent: "South America" },
  { name: "United Kingdom", code: "GB", continent: "Europe" },
  { name: "Germany", code: "DE", continent: "Europe" },
  { name: "France", code: "FR", continent: "Europe" },
  { name: "Spain", code: "ES", continent: "Europe" },
  { name: "Italy", code: "IT", continent: "Europe" },
  { name: "Netherlands", code: "NL", continent: "Europe" },
  { name: "Sweden", code: "SE", continent: "Europe" },
  { name: "Poland", code: "PL", continent: "Europe" },
  { name: "Ireland", code: "IE", continent: "Europe" },
  { name: "India", code: "IN", continent: "Asia" },
  { name: "Japan", code: "JP", continent: "Asia" },
  { name: "South Korea", code: "KR", continent: "Asia" },
  { name: "Singapore", code: "SG", continent: "Asia" },
  { name: "Philippines", code: "PH", continent: "Asia" },
  { name: "United Arab Emirates", code: "AE", continent: "Asia" },
  { name: "Australia", code: "AU", continent: "Oceania" },
  { name: "New Zealand", code: "NZ", continent: "Oceania" },
  { name: "South Africa", code: "ZA", continent: "Africa" },
  { name: "Nigeria", code: "NG", continent: "Africa" },
];

/** A state, province or region (spec 2.2 `geo_info.state {name, code}`; lookup `states` answers names). */
export interface State {
  name: string;
  /** The subdivision code without the country prefix (ISO 3166-2 where one exists). */
  code: string;
  countryCode: string;
}

/** States, provinces and regions of the catalog's cities. */
export const STATES: readonly State[] = [
  ...(
    [
      ["Arizona", "AZ"], ["California", "CA"], ["Colorado", "CO"], ["District of Columbia", "DC"], ["Florida", "FL"],
      ["Georgia", "GA"], ["Illinois", "IL"], ["Massachusetts", "MA"], ["Michigan", "MI"], ["Minnesota", "MN"],
      ["Missouri", "MO"], ["Nevada", "NV"], ["New York", "NY"], ["North Carolina", "NC"], ["Ohio", "OH"],
      ["Oregon", "OR"], ["Pennsylvania", "PA"], ["Tennessee", "TN"], ["Texas", "TX"], ["Utah", "UT"],
      ["Washington", "WA"],
    ] as const
  ).map(([name, code]) => ({ name, code, countryCode: "US" })),
  { name: "Ontario", code: "ON", countryCode: "CA" },
  { name: "British Columbia", code: "BC", countryCode: "CA" },
  { name: "Quebec", code: "QC", countryCode: "CA" },
  { name: "Ciudad de Mexico", code: "CMX", countryCode: "MX" },
  { name: "Jalisco", code: "JAL", countryCode: "MX" },
  { name: "Sao Paulo", code: "SP", countryCode: "BR" },
  { name: "Rio de Janeiro", code: "RJ", countryCode: "BR" },
  { name: "Buenos Aires", code: "C", countryCode: "AR" },
  { name: "Bogota", code: "DC", countryCode: "CO" },
  { name: "England", code: "ENG", countryCode: "GB" },
  { name: "Scotland", code: "SCT", countryCode: "GB" },
  { name: "Berlin", code: "BE", countryCode: "DE" },
  { name: "Bavaria", code: "BY", countryCode: "DE" },
  { name: "Hamburg", code: "HH", countryCode: "DE" },
  { name: "Ile-de-France", code: "IDF", countryCode: "FR" },
  { name: "Auvergne-Rhone-Alpes", code: "ARA", countryCode: "FR" },
  { name: "Madrid", code: "MD", countryCode: "ES" },
  { name: "Catalonia", code: "CT", countryCode: "ES" },
  { name: "Lazio", code: "62", countryCode: "IT" },
  { name: "Lombardy", code: "25", countryCode: "IT" },
  { name: "North Holland", code: "NH", countryCode: "NL" },
  { name: "Stockholm County", code: "AB", countryCode: "SE" },
  { name: "Masovia", code: "14", countryCode: "PL" },
  { name: "Dublin", code: "D", countryCode: "IE" },
  { name: "Maharashtra", code: "MH", countryCode: "IN" },
  { name: "Karnataka", code: "KA", countryCode: "IN" },
  { name: "Delhi", code: "DL", countryCode: "IN" },
  { name: "Tokyo", code: "13", countryCode: "JP" },
  { name: "Osaka", code: "27", countryCode: "JP" },
  { name: "Seoul", code: "11", countryCode: "KR" },
  { name: "Singapore", code: "01", countryCode: "SG" },
  { name: "Metro Manila", code: "00", countryCode: "PH" },
  { name: "Dubai", code: "DU", countryCode: "AE" },
  { name: "New South Wales", code: "NSW", countryCode: "AU" },
  { name: "Victoria", code: "VIC", countryCode: "AU" },
  { name: "Queensland", code: "QLD", countryCode: "AU" },
  { name: "Auckland", code: "AUK", countryCode: "NZ" },
  { name: "Gauteng", code: "GP", countryCode: "ZA" },
  { name: "Western Cape", code: "WC", countryCode: "ZA" },
  { name: "Lagos", code: "LA", countryCode: "NG" },
];

/** The DMA of a city outside the US: Nielsen DMAs exist only in the US. */
export const NO_DMA = "Unknown";

/** A city with its place in the geography (spec 2.2 `geo_info`). */
export interface City {
  name: string;
  stateCode: string;
  countryCode: string;
  /** Nielsen DMA name for US cities, {@link NO_DMA} elsewhere (lookup `dma` answers names). */
  dma: string;
  postalCode: string;
  /** Relative share of the audience living there. */
  weight: number;
}

type CityRow = readonly [name: string, stateCode: string, countryCode: string, dma: string, postalCode: string, weight: number];

const CITY_ROWS: readonly CityRow[] = [
  ["New York", "NY", "US", "New York", "10001", 9],
  ["Los Angeles", "CA", "US", "Los Angeles", "90012", 7],
  ["Chicago", "IL", "US", "Chicago", "60601", 4],
  ["Houston", "TX", "US", "Houston", "77002", 3],
  ["Dallas", "TX", "US", "Dallas-Ft. Worth", "75201", 3],
  ["Austin", "TX", "US", "Austin", "78701", 1.5],
  ["San Antonio", "TX", "US", "San Antonio", "78205", 1.5],
  ["Phoenix", "AZ", "US", "Phoenix (Prescott)", "85004", 2],
  ["Philadelphia", "PA", "US", "Philadelphia", "19103", 3],
  ["San Diego", "CA", "US", "San Diego", "92101", 1.5],
  ["San Francisco", "CA", "US", "San Francisco-Oakland-San Jose", "94103", 2.5],
  ["San Jose", "CA", "US", "San Francisco-Oakland-San Jose", "95113", 1.5],
  ["Seattle", "WA", "US", "Seattle-Tacoma", "98101", 2],
  ["Portland", "OR", "US", "Portland, OR", "97204", 1],
  ["Denver", "CO", "US", "Denver", "80202", 1.5],
  ["Salt Lake City", "UT", "US", "Salt Lake City", "84101", 1],
  ["Las Vegas", "NV", "US", "Las Vegas", "89101", 1],
  ["Boston", "MA", "US", "Boston (Manchester)", "02108", 2.5],
  ["Washington", "DC", "US", "Washington, DC (Hagerstown)", "20001", 2.5],
  ["Atlanta", "GA", "US", "Atlanta", "30303", 2.5],
  ["Miami", "FL", "US", "Miami-Ft. Lauderdale", "33131", 2],
  ["Orlando", "FL", "US", "Orlando-Daytona Beach-Melbourne", "32801", 1.5],
  ["Tampa", "FL", "US", "Tampa-St. Petersburg (Sarasota)", "33602", 1.5],
  ["Minneapolis", "MN", "US", "Minneapolis-St. Paul", "55401", 1.5],
  ["Detroit", "MI", "US", "Detroit", "48226", 1.5],
  ["Columbus", "OH", "US", "Columbus, OH", "43215", 1],
  ["Nashville", "TN", "US", "Nashville", "37203", 1],
  ["Charlotte", "NC", "US", "Charlotte", "28202", 1],
  ["Raleigh", "NC", "US", "Raleigh-Durham (Fayetteville)", "27601", 1],
  ["Kansas City", "MO", "US", "Kansas City", "64105", 1],
  ["St. Louis", "MO", "US", "St. Louis", "63101", 1],
  ["Toronto", "ON", "CA", NO_DMA, "M5H 2N2", 2.5],
  ["Vancouver", "BC", "CA", NO_DMA, "V6B 1A1", 1.2],
  ["Montreal", "QC", "CA", NO_DMA, "H2Y 1C6", 1.2],
  ["Mexico City", "CMX", "MX", NO_DMA, "06000", 1.5],
  ["Guadalajara", "JAL", "MX", NO_DMA, "44100", 0.6],
  ["Sao Paulo", "SP", "BR", NO_DMA, "01000-000", 1.5],
  ["Rio de Janeiro", "RJ", "BR", NO_DMA, "20000-000", 0.8],
  ["Buenos Aires", "C", "AR", NO_DMA, "C1000", 0.6],
  ["Bogota", "DC", "CO", NO_DMA, "110111", 0.5],
  ["London", "ENG", "GB", NO_DMA, "EC1A 1BB", 3],
  ["Manchester", "ENG", "GB", NO_DMA, "M1 1AE", 1],
  ["Edinburgh", "SCT", "GB", NO_DMA, "EH1 1YZ", 0.6],
  ["Berlin", "BE", "DE", NO_DMA, "10115", 1.2],
  ["Munich", "BY", "DE", NO_DMA, "80331", 0.8],
  ["Hamburg", "HH", "DE", NO_DMA, "20095", 0.6],
  ["Paris", "IDF", "FR", NO_DMA, "75001", 1.2],
  ["Lyon", "ARA", "FR", NO_DMA, "69001", 0.5],
  ["Madrid", "MD", "ES", NO_DMA, "28001", 0.8],
  ["Barcelona", "CT", "ES", NO_DMA, "08001", 0.6],
  ["Rome", "62", "IT", NO_DMA, "00118", 0.6],
  ["Milan", "25", "IT", NO_DMA, "20121", 0.6],
  ["Amsterdam", "NH", "NL", NO_DMA, "1012 JS", 0.7],
  ["Stockholm", "AB", "SE", NO_DMA, "111 20", 0.5],
  ["Warsaw", "14", "PL", NO_DMA, "00-001", 0.5],
  ["Dublin", "D", "IE", NO_DMA, "D01 F5P2", 0.5],
  ["Mumbai", "MH", "IN", NO_DMA, "400001", 1],
  ["Bengaluru", "KA", "IN", NO_DMA, "560001", 0.8],
  ["New Delhi", "DL", "IN", NO_DMA, "110001", 0.8],
  ["Tokyo", "13", "JP", NO_DMA, "100-0001", 1],
  ["Osaka", "27", "JP", NO_DMA, "530-0001", 0.5],
  ["Seoul", "11", "KR", NO_DMA, "04524", 0.6],
  ["Singapore", "01", "SG", NO_DMA, "018956", 0.5],
  ["Manila", "00", "PH", NO_DMA, "1000", 0.6],
  ["Dubai", "DU", "AE", NO_DMA, "00000", 0.4],
  ["Sydney", "NSW", "AU", NO_DMA, "2000", 1.2],
  ["Melbourne", "VIC", "AU", NO_DMA, "3000", 1],
  ["Brisbane", "QLD", "AU", NO_DMA, "4000", 0.5],
  ["Auckland", "AUK", "NZ", NO_DMA, "1010", 0.4],
  ["Johannesburg", "GP", "ZA", NO_DMA, "2001", 0.4],
  ["Cape Town", "WC", "ZA", NO_DMA, "8001", 0.3],
  ["Lagos", "LA", "NG", NO_DMA, "100001", 0.4],
];

/** Cities that occur, about 70, with their audience weight. */
export const CITIES: readonly City[] = CITY_ROWS.map(([name, stateCode, countryCode, dma, postalCode, weight]) => ({
  name, stateCode, countryCode, dma, postalCode, weight,
}));

/** Nielsen DMA names that occur (lookup `dma`), in catalog order without repeats. */
export const DMAS: readonly string[] = [...new Set(CITIES.map((city) => city.dma).filter((dma) => dma !== NO_DMA))];

/**
 * An internet service provider and its autonomous system (spec 2.2 `network_info.asn {value,
 * description}`). The `asn` lookup and saved-filter rules spell an ASN "AS7922"; the `asn` metric
 * and session filters, group-by values and `network_info.asn.value` carry the bare number "7922".
 */
export interface Isp {
  name: string;
  asn: number;
  /** The organisation that registered the AS (the ASN's description). */
  asnOrganization: string;
  countryCode: string;
  /** Relative share among the ISPs of its country. */
  weight: number;
  /** Whether its subscribers reach the service mostly over mobile networks. */
  mobile: boolean;
}

type IspRow = readonly [name: string, asn: number, organization: string, countryCode: string, weight: number, mobile?: boolean];

const ISP_ROWS: readonly IspRow[] = [
  ["Comcast Cable", 7922, "Comcast Cable Communications, LLC", "US", 30],
  ["Charter Spectrum", 20115, "Charter Communications Inc", "US", 22],
  ["AT&T Internet", 7018, "AT&T Services, Inc.", "US", 16],
  ["Verizon Fios", 701, "Verizon Business", "US", 12],
  ["Cox Communications", 22773, "Cox Communications Inc.", "US", 7],
  ["T-Mobile USA", 21928, "T-Mobile USA, Inc.", "US", 8, true],
  ["Lumen", 209, "CenturyLink Communications, LLC", "US", 5],
  ["Rogers Communications", 812, "Rogers Communications Canada Inc.", "CA", 5],
  ["Bell Canada", 577, "Bell Canada", "CA", 4],
  ["Telmex", 8151, "Uninet S.A. de C.V.", "MX", 1],
  ["Claro Brasil", 28573, "Claro NXT Telecomunicacoes Ltda", "BR", 3],
  ["Vivo", 26599, "Telefonica Brasil S.A", "BR", 2, true],
  ["Telecom Argentina", 7303, "Telecom Argentina S.A.", "AR", 1],
  ["Claro Colombia", 10620, "Telmex Colombia S.A.", "CO", 1],
  ["BT", 2856, "British Telecommunications PLC", "GB", 4],
  ["Sky Broadband", 5607, "Sky UK Limited", "GB", 3],
  ["Virgin Media", 5089, "Virgin Media Limited", "GB", 3],
  ["Deutsche Telekom", 3320, "Deutsche Telekom AG", "DE", 3],
  ["Vodafone Germany", 3209, "Vodafone GmbH", "DE", 2],
  ["Orange", 3215, "Orange S.A.", "FR", 2],
  ["Free", 12322, "Free SAS", "FR", 1],
  ["Telefonica Spain", 3352, "Telefonica de Espana S.A.U.", "ES", 1],
  ["TIM", 3269, "Telecom Italia S.p.A.", "IT", 1],
  ["KPN", 1136, "KPN B.V.", "NL", 1],
  ["Telia", 3301, "Telia Company AB", "SE", 1],
  ["Orange Polska", 5617, "Orange Polska Spolka Akcyjna", "PL", 1],
  ["Eir", 5466, "Eircom Limited", "IE", 1],
  ["Reliance Jio", 55836, "Reliance Jio Infocomm Limited", "IN", 3, true],
  ["Bharti Airtel", 9498, "Bharti Airtel Ltd.", "IN", 2, true],
  ["NTT", 4713, "NTT Communications Corporation", "JP", 2],
  ["KDDI", 2516, "KDDI Corporation", "JP", 1],
  ["KT", 4766, "Korea Telecom", "KR", 1],
  ["Singtel", 7473, "Singapore Telecommunications Ltd", "SG", 1],
  ["PLDT", 9299, "Philippine Long Distance Telephone Company", "PH", 1, true],
  ["Etisalat", 5384, "Emirates Telecommunications Group Company", "AE", 1],
  ["Telstra", 1221, "Telstra Limited", "AU", 3],
  ["Optus", 4804, "Optus Internet", "AU", 2],
  ["Spark New Zealand", 4771, "Spark New Zealand Trading Ltd.", "NZ", 1],
  ["Vodacom", 29975, "Vodacom Pty Ltd", "ZA", 1, true],
  ["MTN Nigeria", 29465, "MTN Nigeria Communication Limited", "NG", 1, true],
];

/** ISPs that occur, at least one per country. */
export const ISPS: readonly Isp[] = ISP_ROWS.map(([name, asn, asnOrganization, countryCode, weight, mobile]) => ({
  name, asn, asnOrganization, countryCode, weight, mobile: mobile ?? false,
}));

/** The spelling of an ASN in the `asn` lookup and in saved-filter rules ("AS7922"). */
export function asnLookupValue(asn: number | string): string {
  return `AS${asn}`;
}

/** A content delivery network and its edge points of presence (spec 2.2 `network_info.cdn`, `last_cdn_*`). */
export interface Cdn {
  name: string;
  /** Host suffix of its edge servers. */
  edgeDomain: string;
  /** Relative share of traffic. */
  weight: number;
}

/** CDNs that occur. */
export const CDNS: readonly Cdn[] = [
  { name: "Akamai", edgeDomain: "akamaiedge.net", weight: 35 },
  { name: "Fastly", edgeDomain: "fastly.net", weight: 22 },
  { name: "Cloudfront", edgeDomain: "cloudfront.net", weight: 20 },
  { name: "Limelight", edgeDomain: "llnwd.net", weight: 10 },
  { name: "Level3", edgeDomain: "footprint.net", weight: 8 },
  { name: "Cloudflare", edgeDomain: "cloudflare.net", weight: 5 },
];

/** CDN points of presence by continent (airport codes), for edge groups and servers. */
export const CDN_POPS: Readonly<Record<Continent, readonly string[]>> = {
  "North America": ["iad", "ord", "dfw", "lax", "sjc", "sea", "atl", "mia", "yyz"],
  "South America": ["gru", "eze", "bog"],
  "Europe": ["lhr", "fra", "cdg", "ams", "mad", "arn"],
  "Asia": ["nrt", "sin", "bom", "icn", "dxb"],
  "Africa": ["jnb", "los"],
  "Oceania": ["syd", "akl"],
};

/**
 * A device profile: everything a session reports about the device, browser and player (spec 2.2
 * `device_info`, spec 4.7 device_*, browser_*, player_*, platform dimensions).
 */
export interface DeviceProfile {
  category: string;
  hardwareType: "Mobile" | "Tablet" | "Desktop" | "Smart TV" | "Set-top Box" | "Game Console";
  manufacturer: string;
  marketingName: string;
  model: string;
  /** `device_info.name`, the device's display name. */
  name: string;
  os: string;
  osFamily: string;
  osVersion: string;
  browserName: string;
  browserVersion: string;
  playerName: string;
  frameworkName: string;
  frameworkVersion: string;
  platform: string;
  platformVersion: string;
  userAgent: string;
  /** Typical connection (spec 4.7 connection_type, network_connection_type). */
  connection: "WiFi" | "Ethernet" | "Cellular";
  /** Typical peak bitrate in bits per second (screens differ). */
  typicalBitrateBps: number;
  /** Relative share of viewers. */
  weight: number;
}

const NOT_A_BROWSER = "N/A";

/** Device profiles that occur. */
export const DEVICE_PROFILES: readonly DeviceProfile[] = [
  {
    category: "Roku", hardwareType: "Set-top Box", manufacturer: "Roku", marketingName: "Roku Ultra", model: "4850X",
    name: "Roku Ultra", os: "Roku OS", osFamily: "Roku OS", osVersion: "12.5", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo Roku", frameworkName: "Roku SceneGraph", frameworkVersion: "12.5.0",
    platform: "Roku", platformVersion: "12.5.0", userAgent: "Roku/DVP-12.5 (12.5.0.4178)", connection: "WiFi",
    typicalBitrateBps: 6_500_000, weight: 16,
  },
  {
    category: "Apple TV", hardwareType: "Set-top Box", manufacturer: "Apple", marketingName: "Apple TV 4K", model: "AppleTV14,1",
    name: "Apple TV", os: "tvOS", osFamily: "tvOS", osVersion: "17.4", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo tvOS", frameworkName: "AVPlayer", frameworkVersion: "17.4",
    platform: "tvOS", platformVersion: "17.4", userAgent: "StreamCo/5.12.0 (AppleTV14,1; tvOS 17.4)", connection: "Ethernet",
    typicalBitrateBps: 8_000_000, weight: 7,
  },
  {
    category: "Fire TV", hardwareType: "Set-top Box", manufacturer: "Amazon", marketingName: "Fire TV Stick 4K", model: "AFTKA",
    name: "Fire TV Stick", os: "Fire OS", osFamily: "Android", osVersion: "7.6.6", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo Fire TV", frameworkName: "ExoPlayer", frameworkVersion: "2.19.1",
    platform: "Fire TV", platformVersion: "7.6.6.9", userAgent: "StreamCo/5.11.2 (Linux; Android 9; AFTKA)", connection: "WiFi",
    typicalBitrateBps: 6_000_000, weight: 9,
  },
  {
    category: "Android TV", hardwareType: "Set-top Box", manufacturer: "Google", marketingName: "Chromecast with Google TV",
    model: "GZRNL", name: "Chromecast", os: "Android TV", osFamily: "Android", osVersion: "12", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo Android TV", frameworkName: "ExoPlayer", frameworkVersion: "2.19.1",
    platform: "Android TV", platformVersion: "12", userAgent: "StreamCo/5.12.0 (Linux; Android 12; Chromecast)",
    connection: "WiFi", typicalBitrateBps: 6_000_000, weight: 4,
  },
  {
    category: "Smart TV", hardwareType: "Smart TV", manufacturer: "Samsung", marketingName: "Samsung Crystal UHD", model: "UN55CU7000",
    name: "Samsung Smart TV", os: "Tizen", osFamily: "Tizen", osVersion: "7.0", browserName: "Samsung Browser",
    browserVersion: "4.0", playerName: "StreamCo Tizen", frameworkName: "Shaka Player", frameworkVersion: "4.7.11",
    platform: "Tizen", platformVersion: "7.0", userAgent: "Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) SamsungBrowser/4.0",
    connection: "WiFi", typicalBitrateBps: 7_000_000, weight: 8,
  },
  {
    category: "Smart TV", hardwareType: "Smart TV", manufacturer: "LG", marketingName: "LG OLED C3", model: "OLED55C3PUA",
    name: "LG Smart TV", os: "webOS", osFamily: "webOS", osVersion: "23", browserName: "Chrome",
    browserVersion: "94.0", playerName: "StreamCo webOS", frameworkName: "Shaka Player", frameworkVersion: "4.7.11",
    platform: "webOS", platformVersion: "23", userAgent: "Mozilla/5.0 (Web0S; Linux/SmartTV) Chrome/94.0 Safari/537.36 WebAppManager",
    connection: "WiFi", typicalBitrateBps: 7_500_000, weight: 5,
  },
  {
    category: "iOS", hardwareType: "Mobile", manufacturer: "Apple", marketingName: "iPhone 15", model: "iPhone15,4", name: "iPhone",
    os: "iOS", osFamily: "iOS", osVersion: "17.4.1", browserName: NOT_A_BROWSER, browserVersion: NOT_A_BROWSER,
    playerName: "StreamCo iOS", frameworkName: "AVPlayer", frameworkVersion: "17.4", platform: "iOS", platformVersion: "17.4.1",
    userAgent: "StreamCo/5.12.0 (iPhone15,4; iOS 17.4.1)", connection: "Cellular", typicalBitrateBps: 3_200_000, weight: 12,
  },
  {
    category: "iOS", hardwareType: "Tablet", manufacturer: "Apple", marketingName: "iPad Air", model: "iPad13,16", name: "iPad",
    os: "iPadOS", osFamily: "iOS", osVersion: "17.3", browserName: NOT_A_BROWSER, browserVersion: NOT_A_BROWSER,
    playerName: "StreamCo iOS", frameworkName: "AVPlayer", frameworkVersion: "17.3", platform: "iOS", platformVersion: "17.3",
    userAgent: "StreamCo/5.12.0 (iPad13,16; iPadOS 17.3)", connection: "WiFi", typicalBitrateBps: 4_500_000, weight: 4,
  },
  {
    category: "Android", hardwareType: "Mobile", manufacturer: "Samsung", marketingName: "Galaxy S23", model: "SM-S911U",
    name: "Samsung Galaxy", os: "Android", osFamily: "Android", osVersion: "14", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo Android", frameworkName: "ExoPlayer", frameworkVersion: "2.19.1",
    platform: "Android", platformVersion: "14", userAgent: "StreamCo/5.11.2 (Linux; Android 14; SM-S911U)", connection: "Cellular",
    typicalBitrateBps: 2_800_000, weight: 9,
  },
  {
    category: "Android", hardwareType: "Mobile", manufacturer: "Google", marketingName: "Pixel 8", model: "GKWS6", name: "Pixel",
    os: "Android", osFamily: "Android", osVersion: "14", browserName: NOT_A_BROWSER, browserVersion: NOT_A_BROWSER,
    playerName: "StreamCo Android", frameworkName: "ExoPlayer", frameworkVersion: "2.19.1", platform: "Android",
    platformVersion: "14", userAgent: "StreamCo/5.12.0 (Linux; Android 14; Pixel 8)", connection: "WiFi",
    typicalBitrateBps: 3_000_000, weight: 4,
  },
  {
    category: "Web", hardwareType: "Desktop", manufacturer: "Microsoft", marketingName: "Windows PC", model: "PC", name: "Windows PC",
    os: "Windows", osFamily: "Windows", osVersion: "10", browserName: "Chrome", browserVersion: "122.0.6261.112",
    playerName: "StreamCo Web", frameworkName: "Video.js", frameworkVersion: "8.10.0", platform: "Web", platformVersion: "5.12.0",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
    connection: "Ethernet", typicalBitrateBps: 5_000_000, weight: 8,
  },
  {
    category: "Web", hardwareType: "Desktop", manufacturer: "Microsoft", marketingName: "Windows PC", model: "PC", name: "Windows PC",
    os: "Windows", osFamily: "Windows", osVersion: "11", browserName: "Edge", browserVersion: "122.0.2365.80",
    playerName: "StreamCo Web", frameworkName: "Video.js", frameworkVersion: "8.10.0", platform: "Web", platformVersion: "5.12.0",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36 Edg/122.0.2365.80",
    connection: "WiFi", typicalBitrateBps: 4_800_000, weight: 3,
  },
  {
    category: "Web", hardwareType: "Desktop", manufacturer: "Apple", marketingName: "Mac", model: "Macintosh", name: "Mac",
    os: "macOS", osFamily: "macOS", osVersion: "14.4", browserName: "Safari", browserVersion: "17.4",
    playerName: "StreamCo Web", frameworkName: "Video.js", frameworkVersion: "8.10.0", platform: "Web", platformVersion: "5.12.0",
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    connection: "WiFi", typicalBitrateBps: 5_200_000, weight: 4,
  },
  {
    category: "Web", hardwareType: "Desktop", manufacturer: "Unknown", marketingName: "Linux PC", model: "PC", name: "Linux PC",
    os: "Linux", osFamily: "Linux", osVersion: "x86_64", browserName: "Firefox", browserVersion: "123.0",
    playerName: "StreamCo Web", frameworkName: "dash.js", frameworkVersion: "4.7.4", platform: "Web", platformVersion: "5.12.0",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0", connection: "Ethernet",
    typicalBitrateBps: 4_500_000, weight: 1,
  },
  {
    category: "Game Console", hardwareType: "Game Console", manufacturer: "Sony", marketingName: "PlayStation 5", model: "CFI-1215A",
    name: "PlayStation 5", os: "PlayStation OS", osFamily: "PlayStation OS", osVersion: "24.01", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo PlayStation", frameworkName: "Bitmovin", frameworkVersion: "8.150.0",
    platform: "PlayStation", platformVersion: "24.01", userAgent: "StreamCo/5.10.4 (PlayStation 5/24.01)", connection: "Ethernet",
    typicalBitrateBps: 7_800_000, weight: 3,
  },
  {
    category: "Game Console", hardwareType: "Game Console", manufacturer: "Microsoft", marketingName: "Xbox Series X",
    model: "1882", name: "Xbox", os: "Xbox OS", osFamily: "Windows", osVersion: "10.0.25398", browserName: NOT_A_BROWSER,
    browserVersion: NOT_A_BROWSER, playerName: "StreamCo Xbox", frameworkName: "Bitmovin", frameworkVersion: "8.150.0",
    platform: "Xbox", platformVersion: "10.0.25398", userAgent: "StreamCo/5.10.4 (Xbox; Xbox Series X)", connection: "Ethernet",
    typicalBitrateBps: 7_800_000, weight: 2,
  },
];

/** The player SDK versions in use (spec 4.7 svc_core_sdk_version) and app versions (app_version). */
export const SDK_VERSIONS = ["4.7.2", "4.6.11", "4.5.3"] as const;
/** App versions in use, newest first (spec 4.7 app_version). */
export const APP_VERSIONS = ["5.12.0", "5.11.2", "5.10.4"] as const;

/** The account's customers (spec 4.7 customer): the brands that share the service. */
export const CUSTOMERS = ["StreamCo", "StreamCo Kids"] as const;

/** A show of the catalog (spec 4.7 content_meta_* dimensions). */
export interface Show {
  title: string;
  genre: string;
  /** Every genre of the show, the first being {@link genre} (content_meta_genre_list). */
  genres: readonly string[];
  seasons: number;
  episodesPerSeason: number;
  /** Episode length in minutes. */
  episodeMinutes: number;
  brand: string;
  channel: string;
  weight: number;
}

/** Series of the catalog. */
export const SHOWS: readonly Show[] = [
  { title: "Harbor Lights", genre: "Drama", genres: ["Drama", "Mystery"], seasons: 4, episodesPerSeason: 10, episodeMinutes: 52, brand: "StreamCo Originals", channel: "StreamCo One", weight: 14 },
  { title: "The Long Field", genre: "Drama", genres: ["Drama", "Sports"], seasons: 2, episodesPerSeason: 8, episodeMinutes: 48, brand: "StreamCo Originals", channel: "StreamCo One", weight: 8 },
  { title: "Kitchen Rivals", genre: "Reality", genres: ["Reality", "Food"], seasons: 6, episodesPerSeason: 12, episodeMinutes: 42, brand: "StreamCo Lifestyle", channel: "StreamCo Life", weight: 9 },
  { title: "Night Shift", genre: "Comedy", genres: ["Comedy"], seasons: 3, episodesPerSeason: 10, episodeMinutes: 24, brand: "StreamCo Originals", channel: "StreamCo One", weight: 10 },
  { title: "Orbit", genre: "Science Fiction", genres: ["Science Fiction", "Thriller"], seasons: 2, episodesPerSeason: 9, episodeMinutes: 55, brand: "StreamCo Originals", channel: "StreamCo One", weight: 9 },
  { title: "Wild Coasts", genre: "Documentary", genres: ["Documentary", "Nature"], seasons: 3, episodesPerSeason: 6, episodeMinutes: 50, brand: "StreamCo Factual", channel: "StreamCo Discover", weight: 5 },
  { title: "Cold Case Files", genre: "Crime", genres: ["Crime", "Documentary"], seasons: 5, episodesPerSeason: 10, episodeMinutes: 44, brand: "StreamCo Factual", channel: "StreamCo Discover", weight: 6 },
  { title: "Paper Moon Academy", genre: "Animation", genres: ["Animation", "Kids"], seasons: 4, episodesPerSeason: 13, episodeMinutes: 22, brand: "StreamCo Kids", channel: "StreamCo Kids", weight: 4 },
  { title: "Dino Dig", genre: "Kids", genres: ["Kids", "Education"], seasons: 3, episodesPerSeason: 20, episodeMinutes: 11, brand: "StreamCo Kids", channel: "StreamCo Kids", weight: 2 },
  { title: "The Summit", genre: "Thriller", genres: ["Thriller", "Drama"], seasons: 1, episodesPerSeason: 8, episodeMinutes: 58, brand: "StreamCo Originals", channel: "StreamCo One", weight: 7 },
];

/** A film of the catalog. */
export interface Movie {
  title: string;
  genre: string;
  genres: readonly string[];
  minutes: number;
  weight: number;
}

/** Films of the catalog. */
export const MOVIES: readonly Movie[] = [
  { title: "Iron Meridian", genre: "Action", genres: ["Action", "Thriller"], minutes: 128, weight: 5 },
  { title: "The Quiet Orchard", genre: "Drama", genres: ["Drama"], minutes: 112, weight: 3 },
  { title: "Laugh Track", genre: "Comedy", genres: ["Comedy", "Romance"], minutes: 98, weight: 4 },
  { title: "Deep Signal", genre: "Science Fiction", genres: ["Science Fiction", "Horror"], minutes: 121, weight: 4 },
  { title: "Paper Planes", genre: "Animation", genres: ["Animation", "Family"], minutes: 91, weight: 4 },
  { title: "Last Train to Lisbon", genre: "Romance", genres: ["Romance", "Drama"], minutes: 104, weight: 2 },
  { title: "Ghosts of Granite Bay", genre: "Horror", genres: ["Horror"], minutes: 95, weight: 2 },
  { title: "The Cartographer", genre: "Documentary", genres: ["Documentary", "History"], minutes: 87, weight: 1 },
];

/** A live channel (content_meta_category_type LIVE). */
export interface LiveChannel {
  name: string;
  genre: string;
  category: string;
  weight: number;
}

/** Live channels of the catalog. */
export const LIVE_CHANNELS: readonly LiveChannel[] = [
  { name: "StreamCo News 24", genre: "News", category: "News", weight: 8 },
  { name: "StreamCo Sports 1", genre: "Sports", category: "Sports", weight: 9 },
  { name: "StreamCo Sports 2", genre: "Sports", category: "Sports", weight: 4 },
  { name: "StreamCo Kids Live", genre: "Kids", category: "Kids", weight: 3 },
  { name: "Classic Movies Channel", genre: "Classics", category: "Movies", weight: 2 },
  { name: "StreamCo Music Live", genre: "Music", category: "Music", weight: 2 },
];

/** Custom tags of every account (spec 2.2 `tags.custom_tags`; lookup `tags` answers these names). */
export const CUSTOM_TAG_NAMES = ["deviceId", "specialContentId", "subscriptionTier", "experimentGroup", "appBuild"] as const;

/** Subscription tiers (custom tag subscriptionTier) with their share of viewers. */
export const SUBSCRIPTION_TIERS = [["free", 35], ["basic", 40], ["premium", 25]] as const;
/** A/B experiment groups (custom tag experimentGroup) with their share of viewers. */
export const EXPERIMENT_GROUPS = [["control", 50], ["new-abr-ladder", 25], ["low-latency", 25]] as const;
/** The build number of each app version (custom tag appBuild is "<version>+<build>"). */
export const APP_BUILDS: Readonly<Record<(typeof APP_VERSIONS)[number], string>> = {
  "5.12.0": "5.12.0+4127",
  "5.11.2": "5.11.2+4033",
  "5.10.4": "5.10.4+3951",
};

/** Ad systems (spec 4.7 ad_system, ad_first_ad_system) and the ad manager that serves them. */
export const AD_SYSTEMS = [
  { system: "GDFP", manager: "Google IMA", managerVersion: "3.30.3", technology: "Client Side", stitcher: "None" },
  { system: "FreeWheel", manager: "FreeWheel AdManager", managerVersion: "6.56.0", technology: "Server Side", stitcher: "FreeWheel SSAI" },
  { system: "SpringServe", manager: "AWS MediaTailor", managerVersion: "2024.1", technology: "Server Side", stitcher: "MediaTailor" },
] as const;

/** Advertisers with their category and campaigns (spec 4.7 advertiser*, ad_campaign_name). */
export const ADVERTISERS = [
  { id: "adv-1001", name: "Northwind Motors", category: "Automotive", campaigns: ["Spring Drive Event", "Electric Launch"] },
  { id: "adv-1002", name: "Bluebird Airlines", category: "Travel", campaigns: ["Fly Further"] },
  { id: "adv-1003", name: "Crisp Cola", category: "Beverages", campaigns: ["Summer Fizz", "Zero Sugar"] },
  { id: "adv-1004", name: "Helio Bank", category: "Financial Services", campaigns: ["Smart Savings"] },
  { id: "adv-1005", name: "PixelPlay", category: "Gaming", campaigns: ["Galaxy Raiders Launch"] },
  { id: "adv-1006", name: "GreenLeaf Grocers", category: "Retail", campaigns: ["Fresh Every Day", "Holiday Feast"] },
] as const;

/** Ad creative types (spec 4.7 ad_creative_type). */
export const AD_CREATIVE_TYPES = ["video/mp4", "application/x-mpegURL"] as const;
/** Ad types (spec 4.7 ad_type). */
export const AD_TYPES = ["Linear", "Slate"] as const;
/** Ad media file API frameworks (spec 4.7 ad_media_file_api_framework). */
export const AD_API_FRAMEWORKS = ["None", "VPAID", "OMID"] as const;
/** Ad day parts (spec 4.7 ad_day_part), by hour of day UTC-5 (the service's home market). */
export const AD_DAY_PARTS = ["Overnight", "Morning", "Daytime", "Early Fringe", "Prime Time", "Late Night"] as const;
/** Planned ad durations in seconds (spec 4.7 ad_planned_duration). */
export const AD_DURATIONS_SECONDS = [15, 30, 30, 60] as const;
/** Ad unit names (spec 4.7 ad_unit_name). */
export const AD_UNITS = ["/2138/streamco/vod", "/2138/streamco/live", "/2138/streamco/kids"] as const;

/**
 * Error codes of failed sessions (spec 2.2 `status_info.errors`, spec 4.7 error-code dimensions),
 * split by failure kind: business failures are the service's own decisions (rights, entitlement),
 * tech failures are playback problems.
 */
export const ERROR_CODES = {
  startBusiness: ["GEO_BLOCKED", "ENTITLEMENT_REQUIRED", "CONCURRENT_STREAM_LIMIT", "CONTENT_EXPIRED"],
  startTech: ["MANIFEST_LOAD_FAILED", "DRM_LICENSE_FAILED", "NETWORK_TIMEOUT", "HTTP_403_SEGMENT", "DECODER_INIT_FAILED"],
  playbackBusiness: ["CONCURRENT_STREAM_LIMIT", "SESSION_EXPIRED", "BLACKOUT_RESTRICTION"],
  playbackTech: ["HTTP_404_SEGMENT", "NETWORK_TIMEOUT", "DECODE_ERROR", "DRM_KEY_ROTATION_FAILED", "BUFFER_STALL_TIMEOUT"],
} as const;

/** Countries by ISO code, for the name behind a `geo_country_code` value. */
export const COUNTRY_BY_CODE: ReadonlyMap<string, Country> = new Map(COUNTRIES.map((country) => [country.code, country]));

/** ISPs by ASN (as the bare number string of the `asn` dimension), for the ASN's description. */
const ISP_BY_ASN: ReadonlyMap<string, Isp> = new Map(ISPS.map((isp) => [String(isp.asn), isp]));

/** The name of the country behind a `geo_country_code` value ("United States"), undefined for an unknown code. */
export function countryName(code: string): string | undefined {
  return COUNTRY_BY_CODE.get(code)?.name;
}

/**
 * The description of an `asn` dimension value (the bare number, "7922"): the organisation that
 * holds it (spec 2.2 `network_info.asn.description`), undefined for an unknown ASN.
 */
export function asnDescription(asn: string): string | undefined {
  return ISP_BY_ASN.get(asn)?.asnOrganization;
}

/**
 * The CDN resource a session streams from (saved-filter field `Resource`, subcategory Resource of
 * spec 2.7): the account's delivery configuration per CDN and content kind, such as "AKAMAI-VOD".
 */
export function resourceName(cdn: string, live: boolean): string {
  return `${cdn.toUpperCase()}-${live ? "LIVE" : "VOD"}`;
}

/** Standard-time UTC offsets in hours per country (the audience's clock drives the daily curve). */
export const UTC_OFFSET_HOURS: Readonly<Record<string, number>> = {
  US: -5, CA: -5, MX: -6, BR: -3, AR: -3, CO: -5, GB: 0, DE: 1, FR: 1, ES: 1, IT: 1, NL: 1, SE: 1, PL: 1, IE: 0,
  IN: 5.5, JP: 9, KR: 9, SG: 8, PH: 8, AE: 4, AU: 10, NZ: 12, ZA: 2, NG: 1,
};
/** US states outside Eastern time and Canadian provinces outside it, by state code. */
export const STATE_UTC_OFFSET_HOURS: Readonly<Record<string, number>> = {
  "US:IL": -6, "US:TX": -6, "US:MN": -6, "US:MO": -6, "US:TN": -6, "US:AZ": -7, "US:CO": -7, "US:UT": -7,
  "US:CA": -8, "US:WA": -8, "US:OR": -8, "US:NV": -8, "CA:BC": -8,
};

/**
 * Share of a day's viewing in each local hour (0 = midnight): low overnight, rising through the
 * afternoon, peaking in prime time (the quietest hour has about a third of the peak).
 */
export const DIURNAL_CURVE: readonly number[] = [
  0.6, 0.5, 0.42, 0.37, 0.35, 0.35, 0.38, 0.43, 0.49, 0.52, 0.56, 0.6,
  0.63, 0.65, 0.67, 0.7, 0.76, 0.83, 0.91, 0.98, 1.0, 0.96, 0.86, 0.72,
];

/** Acquisition campaigns (spec 4.7 utm_tracking_code), the first being organic sign-ups. */
export const UTM_CODES = ["organic", "spring-promo-2026", "partner-bundle", "search-brand", "social-trailer"] as const;
