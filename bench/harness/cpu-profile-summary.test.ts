import { topSelfTime } from './cpu-profile-summary';

describe('topSelfTime', () => {
  it('adds up the samples per function, heaviest first, in percent of all samples', () => {
    const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });
    const lines = topSelfTime({
      nodes: [
        { hitCount: 10, callFrame: frame('(idle)', '', -1) },
        { hitCount: 30, callFrame: frame('sendJsonText', 'file:///repo/server/http/send-json.ts', 6) },
        { hitCount: 20, callFrame: frame('', 'file:///repo/node_modules/express-session/index.js', 183) },
        // The same function reached through another call path counts once, with both paths' samples.
        { hitCount: 40, callFrame: frame('sendJsonText', 'file:///repo/server/http/send-json.ts', 6) },
        { callFrame: frame('(root)', '', -1) },
      ],
    });
    expect(lines).toEqual([
      { selfPercent: 70, frame: 'sendJsonText /repo/server/http/send-json.ts:7' },
      { selfPercent: 20, frame: '(anonymous) node_modules/express-session/index.js:184' },
      { selfPercent: 10, frame: '(idle) ' },
      { selfPercent: 0, frame: '(root) ' },
    ]);
  });

  it('returns nothing for a profile without samples', () => {
    expect(topSelfTime({ nodes: [] })).toEqual([]);
  });
});
