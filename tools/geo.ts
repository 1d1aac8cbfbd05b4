// npm run geo: the device map's outlines, cut from Natural Earth (public domain, via the world-atlas
// package) and committed as src/extensions/dashboard/countries.geo.json, so the map needs no network.
// Where the business works (Cambodia, Thailand) at 1:10m, China and the neighbours at 1:50m; coordinates
// rounded to about 100 m. Names are ISO 3166 alpha-2 codes; the console translates them.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

const require = createRequire(import.meta.url);
const atlas = (scale: "10m" | "50m") =>
  JSON.parse(readFileSync(require.resolve(`world-atlas/countries-${scale}.json`), "utf8")) as Topology;

/** ISO 3166 numeric code → alpha-2, and the scale each country is drawn at. */
const COUNTRIES: Record<string, { code: string; scale: "10m" | "50m" }> = {
  "116": { code: "KH", scale: "10m" },
  "764": { code: "TH", scale: "10m" },
  "418": { code: "LA", scale: "10m" },
  "704": { code: "VN", scale: "50m" },
  "104": { code: "MM", scale: "50m" },
  "458": { code: "MY", scale: "50m" },
  "156": { code: "CN", scale: "50m" },
  "158": { code: "TW", scale: "50m" },
};

const round = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(round) : typeof value === "number" ? Math.round(value * 1000) / 1000 : value;

const features: unknown[] = [];
for (const scale of ["10m", "50m"] as const) {
  const topology = atlas(scale);
  const countries = feature(topology, topology.objects.countries as GeometryCollection);
  for (const f of countries.features) {
    const wanted = COUNTRIES[String(f.id)];
    if (!wanted || wanted.scale !== scale) continue;
    features.push({
      type: "Feature",
      properties: { name: wanted.code },
      geometry: { type: f.geometry.type, coordinates: round((f.geometry as { coordinates: unknown }).coordinates) },
    });
  }
}
const out = join(resolve(import.meta.dirname, ".."), "src/extensions/dashboard/countries.geo.json");
writeFileSync(out, JSON.stringify({ type: "FeatureCollection", features }));
console.log(`wrote ${out}: ${features.length} countries, ${(readFileSync(out).length / 1024).toFixed(0)} KB`);
