import { CUSTOMERS, LIVE_CHANNELS, MOVIES, SHOWS, type Show } from "./catalog";
import { NOT_APPLICABLE, type DimensionLayer } from "./dimensions";
import { MINUTE_MS } from "../time";

/**
 * Every playable asset of the catalog: each episode of each show, each film and each live channel,
 * with its content dimensions (spec 4.7 asset, content_meta_*) built once.
 */
export interface Asset {
  name: string;
  live: boolean;
  /** Planned length; -1 for a live channel (spec 2.2: negative values can occur). */
  lengthMs: number;
  /** Relative popularity. */
  weight: number;
  /** The show it belongs to, for viewers who follow one show. */
  showIndex: number | undefined;
  /** Kids content (ad unit, customer). */
  kids: boolean;
  /** Sports channels carry events: the custom tag specialContentId changes per event. */
  sports: boolean;
  /** Premieres carry a fixed specialContentId custom tag. */
  specialContentId: string | undefined;
  dimensions: DimensionLayer;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/(^-|-$)/g, "");
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

function contentLayer(fields: {
  name: string; live: boolean; category: string; contentType: string; id: string; title: string; series: string;
  season: string; episode: string; genre: string; genres: readonly string[]; brand: string; channel: string; kids: boolean;
}): DimensionLayer {
  return Object.freeze({
    asset: fields.name,
    asset_type: fields.live ? "Live" : "VOD",
    content_category: fields.category,
    content_meta_affiliate: fields.kids ? "StreamCo Kids Network" : "StreamCo Network",
    content_meta_brand: fields.brand,
    content_meta_category_type: fields.live ? "LIVE" : "VOD",
    content_meta_channel: fields.channel,
    content_meta_content_type: fields.contentType,
    content_meta_episode_number: fields.episode,
    content_meta_genre: fields.genre,
    content_meta_genre_list: fields.genres.join(","),
    content_meta_id: fields.id,
    content_meta_name: fields.title,
    content_meta_season_number: fields.season,
    content_meta_series_name: fields.series,
    content_meta_show_title: fields.series === NOT_APPLICABLE ? fields.title : fields.series,
    video_asset_name: fields.name,
  });
}

function isKidsShow(show: Show): boolean {
  return show.genres.includes("Kids") || show.brand === CUSTOMERS[1];
}

function episodes(show: Show, showIndex: number): Asset[] {
  const assets: Asset[] = [];
  const kids = isKidsShow(show);
  for (let season = 1; season <= show.seasons; season++) {
    for (let episode = 1; episode <= show.episodesPerSeason; episode++) {
      const code = `S${pad(season)}E${pad(episode)}`;
      const name = `${show.title} ${code}`;
      // Newer seasons and early episodes draw more viewers.
      const weight = show.weight * (season === show.seasons ? 3 : 1 / (show.seasons - season + 1)) / Math.sqrt(episode);
      const premiere = season === show.seasons && episode === 1;
      assets.push({
        name, live: false, lengthMs: show.episodeMinutes * MINUTE_MS, weight, showIndex, kids, sports: false,
        specialContentId: premiere ? `SC-PREMIERE-${slug(show.title).toUpperCase()}-S${pad(season)}` : undefined,
        dimensions: contentLayer({
          name, live: false, category: kids ? "Kids" : "Series", contentType: "Episode",
          id: `ep-${slug(show.title)}-${code.toLowerCase()}`, title: `${show.title} - Season ${season} Episode ${episode}`,
          series: show.title, season: String(season), episode: String(episode), genre: show.genre, genres: show.genres,
          brand: show.brand, channel: show.channel, kids,
        }),
      });
    }
  }
  return assets;
}

/** The catalog's assets (about 700). */
export const ASSETS: readonly Asset[] = [
  ...SHOWS.flatMap(episodes),
  ...MOVIES.map((movie, index): Asset => ({
    name: movie.title, live: false, lengthMs: movie.minutes * MINUTE_MS, weight: movie.weight * 15, showIndex: undefined,
    kids: movie.genres.includes("Family"), sports: false,
    specialContentId: index === 0 ? `SC-PREMIERE-${slug(movie.title).toUpperCase()}` : undefined,
    dimensions: contentLayer({
      name: movie.title, live: false, category: "Movies", contentType: "Movie", id: `mv-${slug(movie.title)}`,
      title: movie.title, series: NOT_APPLICABLE, season: NOT_APPLICABLE, episode: NOT_APPLICABLE, genre: movie.genre,
      genres: movie.genres, brand: "StreamCo Films", channel: "StreamCo Cinema", kids: false,
    }),
  })),
  ...LIVE_CHANNELS.map((channel): Asset => ({
    name: channel.name, live: true, lengthMs: -1, weight: channel.weight * 20, showIndex: undefined,
    kids: channel.category === "Kids", sports: channel.category === "Sports", specialContentId: undefined,
    dimensions: contentLayer({
      name: channel.name, live: true, category: channel.category, contentType: "Live Event", id: `live-${slug(channel.name)}`,
      title: channel.name, series: NOT_APPLICABLE, season: NOT_APPLICABLE, episode: NOT_APPLICABLE, genre: channel.genre,
      genres: [channel.genre], brand: "StreamCo Live", channel: channel.name, kids: channel.category === "Kids",
    }),
  })),
];

/** The episodes of each show, for viewers who follow one show. */
export const EPISODES_BY_SHOW: readonly (readonly Asset[])[] = SHOWS.map((_show, index) =>
  ASSETS.filter((asset) => asset.showIndex === index),
);
