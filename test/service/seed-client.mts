import type { StandIn } from './stand-in.mts';

/** Creates a client with two users directly at the stand-in, for operations that need one. */
export async function seedClient(
	service: Pick<StandIn, 'url' | 'apiKey'> & Partial<Pick<StandIn, 'requests'>>,
) {
	const reply = await fetch(`${service.url}/v1/client`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Service-Key': service.apiKey },
		body: JSON.stringify({
			data: {
				action: 'create',
				client: {
					fullname: 'Ada Lovelace',
					users: [
						{ fullname: 'Ada Lovelace', email: 'ada@example.com', customKey: 'crm-1' },
						{ fullname: 'Charles Babbage', email: 'charles@example.com' },
					],
				},
			},
		}),
	});
	const { client } = (await reply.json()) as {
		client: { clientKey: string; users: Array<{ userKey: string }> };
	};
	if (service.requests) service.requests.length = 0;
	return {
		clientKey: client.clientKey,
		defaultUserKey: client.users[0].userKey,
		otherUserKey: client.users[1].userKey,
	};
}
