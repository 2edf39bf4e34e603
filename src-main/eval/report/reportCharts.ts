/**
 * The report's inline SVG: one small bar chart per rate, one bar per model. Static markup only (the page runs no
 * script), every text from data escaped, and a `<title>` on the chart and on each bar for screen readers and hovers.
 */

/** Escapes text for HTML and SVG content and for double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Models are told apart by colour and by name; at most 4 models run together. */
export const MODEL_COLOURS = ['#2f6db5', '#d9822b', '#2e8b57', '#8e44ad'] as const;

export function modelColour(index: number): string {
  return MODEL_COLOURS[index % MODEL_COLOURS.length] ?? MODEL_COLOURS[0];
}

export interface RateBar {
  /** The model's name, shown beside the bar (clipped) and in full in its title. */
  label: string;
  /** A fraction (0..1), or null when the run had no case it applies to. */
  value: number | null;
}

export interface RateChart {
  /** Unique in the page: ids of the chart's title and description derive from it. */
  id: string;
  title: string;
  /** What the rate measures and which way is better, for the chart's description. */
  description: string;
  bars: readonly RateBar[];
}

const WIDTH = 360;
const LABEL_WIDTH = 140;
const BAR_AREA = 150;
const ROW_HEIGHT = 24;
const BAR_HEIGHT = 16;
const TOP = 6;
const AXIS_HEIGHT = 16;

export function formatRate(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

function clipLabel(label: string): string {
  return label.length > 18 ? `${label.slice(0, 17)}…` : label;
}

function bar(chartBar: RateBar, index: number): string {
  const y = TOP + index * ROW_HEIGHT;
  const textY = y + BAR_HEIGHT / 2 + 4;
  const valueText = formatRate(chartBar.value);
  const width = chartBar.value === null ? 0 : Math.max(0, Math.min(1, chartBar.value)) * BAR_AREA;
  const rect =
    chartBar.value === null
      ? ''
      : `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${modelColour(index)}"/>`;
  return [
    `<g class="bar">`,
    `<title>${escapeHtml(`${chartBar.label}: ${valueText}`)}</title>`,
    `<text x="${LABEL_WIDTH - 6}" y="${textY}" text-anchor="end">${escapeHtml(clipLabel(chartBar.label))}</text>`,
    rect,
    `<text x="${(LABEL_WIDTH + width + 4).toFixed(1)}" y="${textY}" class="value">${valueText}</text>`,
    `</g>`,
  ].join('');
}

function axis(height: number): string {
  const bottom = height - AXIS_HEIGHT;
  const ticks = [0, 0.5, 1].map((t) => {
    const x = LABEL_WIDTH + t * BAR_AREA;
    return (
      `<line x1="${x}" y1="${TOP - 2}" x2="${x}" y2="${bottom + 2}" class="grid"/>` +
      `<text x="${x}" y="${height - 4}" text-anchor="middle" class="tick">${t * 100}%</text>`
    );
  });
  return `<g aria-hidden="true">${ticks.join('')}</g>`;
}

/** One rate compared across the models: a horizontal bar per model with its value written beside it. */
export function rateChartSvg(chart: RateChart): string {
  const height = TOP + chart.bars.length * ROW_HEIGHT + AXIS_HEIGHT;
  const titleId = `chart-${chart.id}-title`;
  const descId = `chart-${chart.id}-desc`;
  const summary = chart.bars.map((b) => `${b.label}: ${formatRate(b.value)}`).join('; ');
  return [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" role="img" width="${WIDTH}" height="${height}"`,
    ` viewBox="0 0 ${WIDTH} ${height}" aria-labelledby="${titleId} ${descId}">`,
    `<title id="${titleId}">${escapeHtml(chart.title)}</title>`,
    `<desc id="${descId}">${escapeHtml(`${chart.description} ${summary}.`)}</desc>`,
    axis(height),
    chart.bars.map(bar).join(''),
    `</svg>`,
  ].join('');
}
