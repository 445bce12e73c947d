/**
 * Runs the reference agent from a terminal, one line on stdout per command with its reply:
 *
 *   node --import tsx test/fakes/agent/cli.ts --url ws://127.0.0.1:3000/agents/ws --pair-code ABCD2345
 *   node --import tsx test/fakes/agent/cli.ts --url ws://127.0.0.1:3000/agents/ws --credential <credential>
 *
 * A pair code is exchanged at POST /api/agents/pair on the same host (or --api) and the credential printed, to run
 * again with --credential. Exits 3 when the credential is revoked, 0 on SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { pairAgent, startReferenceAgent, type AgentEvent } from './index';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    api: { type: 'string' },
    'pair-code': { type: 'string' },
    credential: { type: 'string' },
    'agent-version': { type: 'string' },
    'machine-name': { type: 'string' },
    ports: { type: 'string' },
    'encoder-port': { type: 'string' },
    unreachable: { type: 'string' },
    'state-file': { type: 'string' },
  },
});

const EXIT_REVOKED = 3;

function say(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}

function list(value: string | undefined): string[] | undefined {
  return value?.split(',').map((item) => item.trim());
}

/** The API's origin for the same host the channel is on: ws://h:p/agents/ws -> http://h:p. */
function apiOrigin(wsUrl: string): string {
  const url = new URL(wsUrl);
  return `${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}`;
}

function describe(event: AgentEvent): string {
  switch (event.type) {
    case 'welcome':
      return `welcome workstation=${event.welcome.workstation_id} hotel=${event.welcome.hotel_slug} heartbeat=${event.welcome.heartbeat_seconds}s`;
    case 'close':
      return `closed ${event.code}${event.reason ? ` (${event.reason})` : ''}`;
    case 'update':
      return `updating ${event.from} -> ${event.to}, reconnecting`;
    case 'exchange': {
      const { command, reply, redelivered, sent } = event;
      const outcome = reply.ok
        ? `ok ${JSON.stringify(reply.result)}`
        : `error ${reply.error.code}: ${reply.error.message}`;
      const notes = [redelivered && 'stored reply', !sent && 'reply not sent'].filter(Boolean).join(', ');
      return `${command.type} ${command.id} ${JSON.stringify(command.payload)} -> ${outcome}${notes ? ` [${notes}]` : ''}`;
    }
  }
}

async function main(): Promise<void> {
  if (!args.url || (!args['pair-code'] && !args.credential)) {
    process.stderr.write('usage: cli.ts --url ws://host:port/agents/ws (--pair-code CODE | --credential CREDENTIAL)\n');
    process.exit(2);
  }
  let credential = args.credential;
  if (args['pair-code']) {
    const pairing = await pairAgent(args.api ?? apiOrigin(args.url), args['pair-code'], {
      agentVersion: args['agent-version'],
      machineName: args['machine-name'],
    });
    say(`paired workstation=${pairing.workstation_id} hotel=${pairing.hotel_slug} credential=${pairing.credential}`);
    credential = pairing.credential;
  }
  const agent = startReferenceAgent({
    url: args.url,
    credential: credential!,
    agentVersion: args['agent-version'],
    machineName: args['machine-name'],
    ports: list(args.ports),
    encoderPort: args['encoder-port'],
    unreachableHosts: list(args.unreachable),
    stateFile: args['state-file'],
    onEvent: (event) => {
      say(describe(event));
      if (event.type === 'close' && agent.state === 'revoked') {
        say('credential revoked: pair again');
        process.exit(EXIT_REVOKED);
      }
    },
  });
  say(`connecting to ${args.url} as ${agent.agentVersion}`);
  const stop = () => void agent.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
