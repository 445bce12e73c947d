import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  date: string;
  text: string;
  html: string;
  /** Files attached, their content in base64. */
  attachments: { filename: string; contentType: string; content: string }[];
}

export interface MailCatcher {
  smtpUrl: string;
  webUrl: string;
  stop(): Promise<void>;
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function parse(id: string, raw: Buffer): Promise<CaughtMessage> {
  const mail = await simpleParser(raw);
  const addresses = (value: typeof mail.to) =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));
  return {
    id,
    from: mail.from?.text ?? '',
    to: addresses(mail.to),
    subject: mail.subject ?? '',
    date: (mail.date ?? new Date()).toISOString(),
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    attachments: mail.attachments.map((file) => ({
      filename: file.filename ?? '',
      contentType: file.contentType,
      content: file.content.toString('base64'),
    })),
  };
}

function listPage(messages: CaughtMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${escape(new Date(m.date).toLocaleString('ru-RU'))}</td><td>${escape(m.to.join(', '))}</td>` +
        `<td><a href="/messages/${m.id}">${escape(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Mail catcher</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4em;text-align:left}</style>
</head><body><h1>Mail catcher</h1><p>${messages.length} message(s). JSON: <a href="/api/messages">/api/messages</a></p>
<table><tr><th>Received</th><th>To</th><th>Subject</th></tr>${rows}</table></body></html>`;
}

function messagePage(m: CaughtMessage): string {
  const body = m.html
    ? `<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" style="width:100%;height:60vh;border:1px solid #ddd" srcdoc="${escape(m.html)}"></iframe>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(m.subject)}</title>
<style>body{font-family:sans-serif;margin:2em}pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}</style></head><body>
<p><a href="/">&larr; all messages</a></p><h2>${escape(m.subject)}</h2>
<p><b>From:</b> ${escape(m.from)}<br><b>To:</b> ${escape(m.to.join(', '))}<br><b>Date:</b> ${escape(m.date)}</p>
${body}<h3>Text</h3><pre>${escape(m.text)}</pre></body></html>`;
}

/**
 * A local SMTP server that keeps every message (on disk when `directory` is given) and shows them on a web page,
 * with a JSON API for tests: GET /api/messages[?to=address], GET /api/messages/:id, DELETE /api/messages.
 */
export async function startMailCatcher(options: {
  smtpPort: number;
  httpPort: number;
  directory?: string;
}): Promise<MailCatcher> {
  const messages: CaughtMessage[] = [];
  if (options.directory) {
    await mkdir(options.directory, { recursive: true });
    for (const file of (await readdir(options.directory)).filter((f) => f.endsWith('.eml')).sort()) {
      messages.push(await parse(file.replace(/\.eml$/, ''), await readFile(path.join(options.directory, file))));
    }
  }
  let sequence = messages.length;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const id = `${Date.now()}-${String(++sequence).padStart(6, '0')}`;
        parse(id, raw)
          .then(async (message) => {
            if (options.directory) await writeFile(path.join(options.directory, `${id}.eml`), raw);
            messages.push(message);
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(options.smtpPort, '127.0.0.1', () => resolve());
  });

  const web: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    const html = (page: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    const byId = (id: string) => messages.find((m) => m.id === id);
    if (req.method === 'DELETE' && url.pathname === '/api/messages') {
      messages.length = 0;
      return json(200, { ok: true });
    }
    if (url.pathname === '/api/messages') {
      const to = url.searchParams.get('to')?.toLowerCase();
      return json(200, to ? messages.filter((m) => m.to.some((a) => a.toLowerCase() === to)) : messages);
    }
    const apiMatch = /^\/api\/messages\/([\w-]+)$/.exec(url.pathname);
    if (apiMatch) {
      const message = byId(apiMatch[1]);
      return message ? json(200, message) : json(404, { error: 'not found' });
    }
    const pageMatch = /^\/messages\/([\w-]+)$/.exec(url.pathname);
    if (pageMatch && byId(pageMatch[1])) return html(messagePage(byId(pageMatch[1])!));
    if (url.pathname === '/') return html(listPage(messages));
    return json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => web.listen(options.httpPort, '127.0.0.1', resolve));

  return {
    smtpUrl: `smtp://127.0.0.1:${options.smtpPort}`,
    webUrl: `http://localhost:${options.httpPort}`,
    async stop() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      web.closeAllConnections();
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}
