import { loadPackage } from './lazy-package';

/** The Cyrillic fonts documents and charts are drawn with, from an npm package: a fresh machine may have none. */
export const FONT_FILES = {
  main: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

/**
 * An A4 PDF drawn by `draw` (pdfkit, loaded on first use), with the packaged fonts registered as `main` and `bold`
 * and `main` set: its bytes once the document ends.
 */
export async function renderPdf(
  options: { title: string; margin: number },
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  const PDFDocument = await loadPackage(() => import('pdfkit'));
  const doc = new PDFDocument({ size: 'A4', margin: options.margin, info: { Title: options.title } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('main', FONT_FILES.main);
  doc.registerFont('bold', FONT_FILES.bold);
  doc.font('main');
  draw(doc);
  doc.end();
  return done;
}
