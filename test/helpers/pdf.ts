import { execFile } from 'node:child_process';

/**
 * The text of a PDF, as pdf-parse extracts it. In a child process: pdf.js starts its worker by a dynamic import,
 * which Jest's module sandbox does not run.
 */
export function pdfText(pdf: Buffer): Promise<string> {
  const script = `
    const { PDFParse } = require('pdf-parse');
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', async () => {
      const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
      process.stdout.write((await parser.getText()).text);
      await parser.destroy();
    });`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { cwd: process.cwd() }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}
