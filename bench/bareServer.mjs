// The baseline: a bare Node HTTP server that reads the body and answers 202.
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(202, { 'content-type': 'text/plain' });
    response.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${server.address().port}` }));
process.on('message', (message) => message === 'stop' && server.close(() => process.exit(0)));
