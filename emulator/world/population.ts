import { hashSeed } from "../random";
import {
  APP_BUILDS, APP_VERSIONS, CDN_POPS, CDNS, CITIES, COUNTRY_BY_CODE, CUSTOMERS, DEVICE_PROFILES, EXPERIMENT_GROUPS,
  ISPS, SDK_VERSIONS, SHOWS, STATE_UTC_OFFSET_HOURS, STATES, SUBSCRIPTION_TIERS, UTC_OFFSET_HOURS, UTM_CODES,
  type Cdn, type City, type Country, type DeviceProfile, type Isp, type State,
} from "./catalog";
import type { DimensionLayer } from "./dimensions";
import { Sampler } from "./sampling";

/**
 * The viewers of an account: a stable population with a home (city, ISP, IP addresses), one to three
 * devices and a subscription, so that the same person shows up again and again like in real data.
 */

/** Viewers per account. */
export const POPULATION_SIZE = 3000;

/**
 * The documented heavy viewers (viewer-000001 to viewer-000003): about 36 sessions a day each, so
 * a 30-day viewer query exceeds the 500-session cap of spec 8 and the client must split it.
 */
export const HEAVY_VIEWERS = [
  { city: "New York", isp: "Comcast Cable", devices: ["Roku Ultra", "iPhone 15"] },
  { city: "London", isp: "BT", devices: ["Samsung Crystal UHD", "Windows PC"] },
  { city: "Los Angeles", isp: "Charter Spectrum", devices: ["Fire TV Stick 4K", "Galaxy S23"] },
] as const;

/** Expected sessions per hour of each heavy viewer, at any hour (they binge around the clock). */
export const HEAVY_VIEWER_SESSIONS_PER_HOUR = 1.5;

/** One device of a viewer: its SDK client id, custom tag deviceId and device dimensions. */
export interface ViewerDevice {
  /** Position among all devices of the population, in viewer order (world/compact.ts numbers devices by it). */
  index: number;
  /** The player SDK's client id (spec 2.2 client_id), four 32-bit numbers like the service's. */
  clientId: string;
  /** The custom tag deviceId. */
  deviceId: string;
  profile: DeviceProfile;
  appVersion: (typeof APP_VERSIONS)[number];
  /** The CDN this device's sessions usually get. */
  primaryCdn: Cdn;
  /** Device, player, geography and network dimensions (world/dimensions.ts, layer `device`). */
  dimensions: DimensionLayer;
  /** Relative share of the viewer's sessions. */
  weight: number;
}

/** One viewer. */
export interface Viewer {
  /** 1-based; the viewer id is `viewer-NNNNNN` and the same person's user id `user-NNNNNN`. */
  number: number;
  viewerId: string;
  city: City;
  state: State;
  country: Country;
  isp: Isp;
  ip: string;
  ipv6: string | null;
  devices: readonly ViewerDevice[];
  tier: string;
  experimentGroup: string;
  /** The brand the viewer subscribed through (spec 4.7 customer); kids profiles follow kids shows. */
  customer: string;
  /** Edge location of the CDNs near home (an airport code). */
  pop: string;
  /** A show this viewer follows, if any. */
  favoriteShow: number | undefined;
  /** Expected sessions per day (regular viewers; heavy viewers follow their own rate). */
  dailySessions: number;
  heavy: boolean;
  utcOffsetHours: number;
}

const VIEWER_PREFIX = "viewer-";
const USER_PREFIX = "user-";
const NUMBER_DIGITS = 6;

/** The viewer id of a viewer number: `viewer-000042`. */
export function viewerIdOf(number: number): string {
  return `${VIEWER_PREFIX}${String(number).padStart(NUMBER_DIGITS, "0")}`;
}

/**
 * The viewer id that a viewer id or user id names (the PII opt-out takes both, spec 4.10):
 * `viewer-000042` and `user-000042` are the same person. Undefined for anything else or a number
 * outside the population.
 */
export function viewerIdForIdentifier(id: string): string | undefined {
  const match = /^(viewer|user)-(\d{6})$/.exec(id);
  if (!match) return undefined;
  const number = Number(match[2]);
  return number >= 1 && number <= POPULATION_SIZE ? viewerIdOf(number) : undefined;
}

/** The user id of a viewer id (`user-000042`). */
export function userIdOf(viewerId: string): string {
  return viewerId.replace(VIEWER_PREFIX, USER_PREFIX);
}

const KIDS_SHOWS = SHOWS.flatMap((show, index) => (show.brand === CUSTOMERS[1] ? [index] : []));
const STATE_BY_KEY = new Map(STATES.map((state) => [`${state.countryCode}:${state.code}`, state]));

function ispsOf(countryCode: string): readonly Isp[] {
  return ISPS.filter((isp) => isp.countryCode === countryCode);
}

/** First octets of the IPv4 blocks the emulator hands out: public, not private, loopback or CGNAT. */
function firstOctet(asn: number): number {
  const octet = 2 + (hashSeed("ipv4", asn) % 221);
  return [10, 100, 127, 169, 172, 192, 198, 203].includes(octet) ? octet + 1 : octet;
}

function ipv6Prefix(asn: number): string {
  return `2${(0x400 + (hashSeed("ipv6", asn) % 0xbff)).toString(16)}:${(hashSeed("ipv6b", asn) % 0xffff).toString(16)}`;
}

function deviceLayer(viewer: Omit<Viewer, "devices">, profile: DeviceProfile, appVersion: string, utm: string): DimensionLayer {
  const connection = viewer.isp.mobile && profile.connection !== "Ethernet" ? "Cellular" : profile.connection;
  return Object.freeze({
    app_version: appVersion,
    asn: String(viewer.isp.asn),
    browser_name: profile.browserName,
    browser_version: profile.browserVersion,
    connection_type: connection,
    svc_core_sdk_version: SDK_VERSIONS[APP_VERSIONS.indexOf(appVersion as (typeof APP_VERSIONS)[number])] ?? SDK_VERSIONS[0],
    customer: viewer.customer,
    device_category: profile.category,
    device_hardware_type: profile.hardwareType,
    device_manufacturer: profile.manufacturer,
    device_marketing_name: profile.marketingName,
    device_model: profile.model,
    device_name: profile.name,
    device_os: profile.os,
    device_os_family: profile.osFamily,
    device_os_version: profile.osVersion,
    geo_city_name: viewer.city.name,
    geo_continent_name: viewer.country.continent,
    geo_country_code: viewer.country.code,
    geo_dma: viewer.city.dma,
    geo_postal_code: viewer.city.postalCode,
    geo_state_name: viewer.state.name,
    isp: viewer.isp.name,
    network_connection_type: connection === "Cellular" ? "4G/5G" : connection === "WiFi" ? "WiFi" : "Wired",
    platform: profile.platform,
    platform_version: profile.platformVersion,
    player_name: profile.playerName,
    player_framework_name: profile.frameworkName,
    player_framework_version: profile.frameworkVersion,
    user_agent: profile.userAgent,
    utm_tracking_code: utm,
  });
}

function clientIdOf(sampler: Sampler): string {
  return Array.from({ length: 4 }, () => String(Math.floor(sampler.unit() * 2 ** 32))).join(".");
}

/** Builds the population of an account from its world seed (same seed, same people). */
export function createPopulation(seed: number): readonly Viewer[] {
  const sampler = new Sampler(hashSeed(seed, "population"));
  const usedIps = new Set<string>();
  const viewers: Viewer[] = [];
  let deviceIndex = 0;
  for (let number = 1; number <= POPULATION_SIZE; number++) {
    const heavy = HEAVY_VIEWERS[number - 1];
    const city = heavy ? CITIES.find((candidate) => candidate.name === heavy.city)! : sampler.weighted(CITIES, (c) => c.weight);
    const country = COUNTRY_BY_CODE.get(city.countryCode)!;
    const state = STATE_BY_KEY.get(`${city.countryCode}:${city.stateCode}`)!;
    const isp = heavy ? ISPS.find((candidate) => candidate.name === heavy.isp)! : sampler.weighted(ispsOf(country.code), (i) => i.weight);
    let ip: string;
    do {
      ip = `${firstOctet(isp.asn)}.${hashSeed("ipv4b", isp.asn) % 256}.${sampler.integer(0, 255)}.${sampler.integer(1, 254)}`;
    } while (usedIps.has(ip));
    usedIps.add(ip);
    const ipv6 = sampler.chance(0.55) ? `${ipv6Prefix(isp.asn)}:${sampler.hex(4)}:${sampler.hex(4)}::${sampler.hex(3)}` : null;
    const tier = sampler.weighted(SUBSCRIPTION_TIERS, ([, share]) => share)[0];
    const pops = CDN_POPS[country.continent];
    const kids = sampler.chance(0.08);
    const base: Omit<Viewer, "devices"> = {
      number,
      viewerId: viewerIdOf(number),
      city, state, country, isp, ip, ipv6, tier,
      experimentGroup: sampler.weighted(EXPERIMENT_GROUPS, ([, share]) => share)[0],
      pop: pops[hashSeed(city.name) % pops.length]!,
      customer: kids ? CUSTOMERS[1] : CUSTOMERS[0],
      favoriteShow: kids ? sampler.pick(KIDS_SHOWS) : sampler.chance(0.6) ? sampler.integer(0, SHOWS.length - 1) : undefined,
      dailySessions: heavy ? 0 : Math.min(12, sampler.logNormal(0.95, 0.75)),
      heavy: heavy !== undefined,
      utcOffsetHours: STATE_UTC_OFFSET_HOURS[`${city.countryCode}:${city.stateCode}`] ?? UTC_OFFSET_HOURS[city.countryCode] ?? 0,
    };
    const utm = sampler.weighted(UTM_CODES, (code) => (code === UTM_CODES[0] ? 6 : 1));
    const deviceCount = heavy ? heavy.devices.length : sampler.weighted([1, 2, 3], (count) => [55, 32, 13][count - 1]!);
    const profiles: DeviceProfile[] = heavy
      ? heavy.devices.map((name) => DEVICE_PROFILES.find((profile) => profile.marketingName === name)!)
      : [];
    while (profiles.length < deviceCount) {
      const profile = sampler.weighted(DEVICE_PROFILES, (candidate) => candidate.weight);
      if (!profiles.includes(profile)) profiles.push(profile);
    }
    const devices = profiles.map((profile, index): ViewerDevice => {
      const appVersion = sampler.weighted(APP_VERSIONS, (version) => [70, 22, 8][APP_VERSIONS.indexOf(version)]!);
      return {
        index: deviceIndex++,
        clientId: clientIdOf(sampler),
        deviceId: `d-${sampler.hex(12)}`,
        profile,
        appVersion,
        primaryCdn: sampler.weighted(CDNS, (cdn) => cdn.weight),
        dimensions: deviceLayer(base, profile, appVersion, utm),
        weight: index === 0 ? 3 : 1,
      };
    });
    // Every field written out in one literal: a spread gave almost every viewer a hidden class of
    // its own (2,990 for 3,000 viewers), and the generator's reads of viewer fields, one per session,
    // went through V8's slowest path (the profile of a cold year: the hottest lines of world/generate.ts).
    viewers.push({
      number: base.number, viewerId: base.viewerId, city, state, country, isp, ip, ipv6, devices, tier,
      experimentGroup: base.experimentGroup, customer: base.customer, pop: base.pop, favoriteShow: base.favoriteShow,
      dailySessions: base.dailySessions, heavy: base.heavy, utcOffsetHours: base.utcOffsetHours,
    });
  }
  return viewers;
}

/** The custom tag appBuild of an app version. */
export function appBuildOf(device: ViewerDevice): string {
  return APP_BUILDS[device.appVersion];
}

/** Custom tags (spec 2.2 `tags.custom_tags`) of a session of this viewer's device and special content id. */
export function customTagsOf(viewer: Viewer, device: ViewerDevice, specialContentId: string | undefined): Readonly<Record<string, string>> {
  return Object.freeze({
    deviceId: device.deviceId,
    ...(specialContentId === undefined ? {} : { specialContentId }),
    subscriptionTier: viewer.tier,
    experimentGroup: viewer.experimentGroup,
    appBuild: appBuildOf(device),
  });
}
