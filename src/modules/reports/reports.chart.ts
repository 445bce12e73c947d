import type { TopLevelSpec } from 'vega-lite';
import { loadPackage } from '../../platform/lazy-package';
import { FONT_FILES } from '../../platform/pdf';

const FONT = 'DejaVu Sans';

export interface ChartData {
  history: { date: string; occupancy: string; adr: string }[];
  on_the_books: { date: string; occupancy: string }[];
}

/** Occupancy of the last 30 days and on the books for the next 30 as bars, the ADR of the past days as a line. */
function chartSpec({ history, on_the_books: ahead }: ChartData): TopLevelSpec {
  const values = [
    ...history.map((day) => ({ date: day.date, occupancy: Number(day.occupancy), adr: Number(day.adr), kind: 'Факт' })),
    ...ahead.map((day) => ({ date: day.date, occupancy: Number(day.occupancy), adr: null, kind: 'На книгах' })),
  ];
  const x = { field: 'date', type: 'ordinal' as const, title: null, axis: { labelAngle: -60, labelFontSize: 9 } };
  return {
    width: 720,
    height: 260,
    background: 'white',
    config: { font: FONT },
    title: 'Загрузка (%) и ADR (₽): 30 дней назад и 30 вперёд',
    data: { values },
    layer: [
      {
        mark: 'bar',
        encoding: {
          x,
          y: { field: 'occupancy', type: 'quantitative', title: 'Загрузка, %', scale: { domain: [0, 100] } },
          color: {
            field: 'kind',
            type: 'nominal',
            title: null,
            scale: { domain: ['Факт', 'На книгах'], range: ['#2f6fb0', '#9cc3e6'] },
          },
        },
      },
      {
        mark: { type: 'line', color: '#d9534f', point: { color: '#d9534f' } },
        transform: [{ filter: 'datum.adr != null' }],
        encoding: { x, y: { field: 'adr', type: 'quantitative', title: 'ADR, ₽' } },
      },
    ],
    resolve: { scale: { y: 'independent' } },
  };
}

/** The chart as SVG (Vega-Lite compiled, rendered headless by Vega), then PNG (resvg, with the packaged font). */
export async function chartPng(data: ChartData): Promise<Buffer> {
  const vega = await loadPackage(() => import('vega'));
  const { compile } = await loadPackage(() => import('vega-lite'));
  const { renderAsync } = await loadPackage(() => import('@resvg/resvg-js'));
  const view = new vega.View(vega.parse(compile(chartSpec(data)).spec), { renderer: 'none' });
  const svg = await view.toSVG(2);
  view.finalize();
  const png = await renderAsync(svg, {
    font: { fontFiles: [FONT_FILES.main], loadSystemFonts: false, defaultFontFamily: FONT },
  });
  return Buffer.from(png.asPng());
}
