import { describe, expect, it } from 'vitest';
import { errorFromOutput, lastOutput } from './serverErrorOutput.js';

// What servers print on stderr when they stop, as Node, Python and npm write it.
const NODE_UNCAUGHT = `Weather MCP Server v1.2.0 running on stdio
file:///srv/weather/index.js:41
    throw new Error('WEATHER_API_KEY is not set');
          ^

Error: WEATHER_API_KEY is not set
    at file:///srv/weather/index.js:41:11
    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)
    at async ModuleLoader.import (node:internal/modules/esm/loader:473:24)

Node.js v20.19.0
`;

const NODE_WITH_PROPERTIES = `Postgres MCP server listening on stdio
Error: connect ECONNREFUSED 127.0.0.1:5432
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {
  errno: -111,
  code: 'ECONNREFUSED',
  syscall: 'connect',
  address: '127.0.0.1',
  port: 5432
}

Node.js v20.19.0
`;

const PYTHON_TRACEBACK = `INFO:     Started server process [4242]
INFO:     Waiting for application startup.
Traceback (most recent call last):
  File "/srv/notes/server.py", line 88, in <module>
    main()
  File "/srv/notes/server.py", line 80, in main
    db = connect(os.environ["NOTES_DB"])
KeyError: 'NOTES_DB'
`;

// @modelcontextprotocol/server-filesystem given only folders that do not exist (its real output).
const FILESYSTEM_NO_FOLDERS = `Warning: Cannot access directory /nonexistent, skipping
Error: None of the specified directories are accessible
`;

describe('the reason a stopped server gives on stderr', () => {
  it('is the error it printed last, not its banner, stack frames or version line', () => {
    expect(errorFromOutput(NODE_UNCAUGHT)).toBe('Error: WEATHER_API_KEY is not set');
    expect(errorFromOutput(NODE_WITH_PROPERTIES)).toBe(
      "Error: connect ECONNREFUSED 127.0.0.1:5432 errno: -111, code: 'ECONNREFUSED',",
    );
    expect(errorFromOutput(PYTHON_TRACEBACK)).toBe("KeyError: 'NOTES_DB'");
    expect(errorFromOutput(FILESYSTEM_NO_FOLDERS)).toBe('Error: None of the specified directories are accessible');
    expect(errorFromOutput('npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.example/nope\n')).toBe(
      'npm ERR! 404 Not Found - GET https://registry.example/nope',
    );
  });

  it('is nothing when only a banner was printed, which is then offered as output, never as a reason', () => {
    expect(
      errorFromOutput('Secure MCP Filesystem Server running on stdio\nAllowed directories: [ "/tmp" ]\n'),
    ).toBeNull();
    expect(errorFromOutput('')).toBeNull();
    expect(lastOutput('Secure MCP Filesystem Server running on stdio\n')).toBe(
      'Secure MCP Filesystem Server running on stdio',
    );
    expect(lastOutput('\n\nNode.js v20.19.0\n')).toBeNull();
  });

  it('keeps a long reason bounded and ends without its own full stop', () => {
    expect(errorFromOutput('fatal: ' + 'x'.repeat(2000) + '.\n')!.length).toBeLessThanOrEqual(501);
    expect(errorFromOutput('Error: out of disk space.\n')).toBe('Error: out of disk space');
  });
});
