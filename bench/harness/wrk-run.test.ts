import { NonSuccessfulLoadError } from './load-run';
import { parseWrkOutput } from './wrk-run';

const REPORT = `Running 5s test @ http://127.0.0.1:4000/slots
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   812.00us  150.10us   5.20ms   90.00%
    Req/Sec    12.10k   400.00    13.00k    70.00%
  Latency Distribution
     50%  780.00us
     75%  850.00us
     90%    0.95ms
     99%    1.40ms
  60500 requests in 5.01s, 120.50MB read
Requests/sec:  12075.85
Transfer/sec:     24.05MB
`;

describe('parseWrkOutput', () => {
  it('reads the request count, duration, bytes and latencies in milliseconds', () => {
    const sample = parseWrkOutput('http://x/slots', REPORT);
    expect(sample.requests).toBe(60500);
    expect(sample.seconds).toBeCloseTo(5.01);
    expect(sample.requestsPerSecond).toBeCloseTo(60500 / 5.01);
    expect(sample.bytesPerSecond).toBeCloseTo((120.5 * 1024 * 1024) / 5.01);
    expect(sample.latencyP50).toBeCloseTo(0.78);
    expect(sample.latencyP99).toBeCloseTo(1.4);
    expect(sample.latencyMean).toBeCloseTo(0.812);
  });

  it('fails a run that got anything but 2xx answers, or socket errors', () => {
    expect(() => parseWrkOutput('http://x/meta', `${REPORT}  Non-2xx or 3xx responses: 12\n`)).toThrow(
      NonSuccessfulLoadError,
    );
    expect(() =>
      parseWrkOutput('http://x/meta', `${REPORT}  Socket errors: connect 0, read 3, write 0, timeout 0\n`),
    ).toThrow(/3 errors/);
    expect(() => parseWrkOutput('http://x/meta', 'unable to connect to 127.0.0.1:1 Connection refused')).toThrow(
      /no request count/,
    );
  });
});
