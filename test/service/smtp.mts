/**
 * A stand-in mail server: SMTP on 127.0.0.1 without TLS, taking every message (AUTH PLAIN and
 * LOGIN accepted whatever the password), for tests that check what n8n's Send Email sent.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Mail {
	from: string;
	to: string[];
	subject: string;
	/** The text part, with its soft line breaks undone. */
	text: string;
	raw: string;
}

export interface SmtpStandIn {
	host: string;
	port: number;
	mails: Mail[];
	/** While true, every mail is refused with 451 (try again later), as a mail server that is down for a while. */
	refusing: boolean;
	/** The next mail that arrives, or one already there, that `match` takes. */
	waitForMail(match: (mail: Mail) => boolean, withinMs: number): Promise<Mail>;
	close(): Promise<void>;
}

/** Undoes quoted-printable (soft line breaks, =XX bytes), as a mail client reads a text part. */
function unquote(text: string): string {
	const bytes = text
		.replace(/=\r?\n/g, '')
		.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A header as a mail client shows it: RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `?B?`) decoded. */
function decodeHeader(value: string): string {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
			kind.toUpperCase() === 'B'
				? Buffer.from(text, 'base64').toString('utf8')
				: unquote(text.replace(/_/g, ' ')),
		);
}

function parse(raw: string, from: string, to: string[]): Mail {
	const [head, ...rest] = raw.split(/\r?\n\r?\n/);
	const headers = head.replace(/\r?\n[ \t]+/g, ' ');
	const subject = decodeHeader(/^Subject: (.*)$/im.exec(headers)?.[1] ?? '');
	const quoted = /quoted-printable/i.test(raw);
	const body = rest.join('\n\n');
	// A multipart mail: the text/plain part's body; else the body as it is.
	const part = /Content-Type: text\/plain[^\n]*\r?\n(?:[^\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n--/i.exec(
		body,
	)?.[1];
	const text = part ?? body;
	return { from, to, subject, text: quoted ? unquote(text) : text, raw };
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
	const mails: Mail[] = [];
	const waiting = new Set<() => void>();
	const sockets = new Set<Socket>();
	const server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		let buffer = '';
		let inData = false;
		let login = 0;
		let from = '';
		let to: string[] = [];
		const reply = (line: string) => socket.write(`${line}\r\n`);
		reply('220 smtp.stand-in ESMTP');
		socket.on('data', (chunk: Buffer) => {
			buffer += chunk.toString('latin1');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end === -1) return;
					const raw = Buffer.from(buffer.slice(0, end), 'latin1')
						.toString('utf8')
						.replace(/^\.\./gm, '.');
					buffer = buffer.slice(end + 5);
					inData = false;
					mails.push(parse(raw, from, to));
					for (const wake of waiting) wake();
					reply('250 queued');
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline === -1) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				const verb = line.split(' ')[0].toUpperCase();
				if (login > 0) {
					login -= 1;
					reply(login > 0 ? '334 UGFzc3dvcmQ6' : '235 accepted');
				} else if (verb === 'EHLO') {
					reply('250-smtp.stand-in');
					reply('250 AUTH PLAIN LOGIN');
				} else if (verb === 'HELO') reply('250 smtp.stand-in');
				else if (verb === 'AUTH' && /^AUTH LOGIN/i.test(line)) {
					login = line.split(' ').length > 2 ? 1 : 2;
					reply(login === 2 ? '334 VXNlcm5hbWU6' : '334 UGFzc3dvcmQ6');
				} else if (verb === 'AUTH') reply('235 accepted');
				else if (verb === 'MAIL' && standIn.refusing) reply('451 4.3.2 try again later');
				else if (verb === 'MAIL') {
					from = /<([^>]*)>/.exec(line)?.[1] ?? '';
					to = [];
					reply('250 ok');
				} else if (verb === 'RCPT') {
					to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
					reply('250 ok');
				} else if (verb === 'DATA') {
					inData = true;
					reply('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'QUIT') {
					reply('221 bye');
					socket.end();
				} else reply('250 ok');
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const standIn: SmtpStandIn = {
		host: '127.0.0.1',
		port,
		mails,
		refusing: false,
		async waitForMail(match, withinMs) {
			const giveUpAt = Date.now() + withinMs;
			for (;;) {
				const found = mails.find(match);
				if (found) return found;
				const left = giveUpAt - Date.now();
				if (left <= 0) {
					throw new Error(
						`no such mail within ${withinMs} ms; arrived: ${JSON.stringify(mails.map((mail) => mail.subject))}`,
					);
				}
				await new Promise<void>((resolve) => {
					const wake = () => {
						waiting.delete(wake);
						clearTimeout(timer);
						resolve();
					};
					const timer = setTimeout(wake, left);
					waiting.add(wake);
				});
			}
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
	return standIn;
}
