import { topSelfTime } from './cpu-profile-summary';

describe('topSelfTime', () => {
  const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });

  it('adds up the samples per function, heaviest first, in percent of all samples', () => {
    const lines = topSelfTime({
      nodes: [
        { hitCount: 6, callFrame: frame('(idle)', '', -1) },
        { hitCount: 30, callFrame: frame('sendJsonText', 'file:///repo/server/http/send-json.ts', 6) },
        { hitCount: 20, callFrame: frame('', 'file:///repo/node_modules/express-session/index.js', 183) },
        // The same function reached through another call path counts once, with both paths' samples.
        { hitCount: 40, callFrame: frame('sendJsonText', 'file:///repo/server/http/send-json.ts', 6) },
        { hitCount: 4, callFrame: frame('answer', 'file:///repo/server/slots/answer.js', 9) },
        { callFrame: frame('(root)', '', -1) },
      ],
    });
    expect(lines).toEqual([
      { selfPercent: 70, frame: 'sendJsonText /repo/server/http/send-json.ts:7' },
      { selfPercent: 20, frame: '(anonymous) node_modules/express-session/index.js:184' },
      { selfPercent: 6, frame: '(idle) ' },
      { selfPercent: 4, frame: 'answer /repo/server/slots/answer.js:10' },
      { selfPercent: 0, frame: '(root) ' },
    ]);
  });

  it('names a file of the server compiled for the bench from the repository, without its compiled folder', () => {
    const lines = topSelfTime(
      {
        nodes: [
          {
            hitCount: 3,
            callFrame: frame('answer', 'file:///repo/.tsbuild/bench-compiled/server-main/server/a.js', 9),
          },
          { hitCount: 1, callFrame: frame('other', 'file:///elsewhere/server-main/server/a.js', 2) },
        ],
      },
      25,
      '/repo/.tsbuild/bench-compiled',
    );
    expect(lines.map((line) => line.frame)).toEqual([
      'answer server/a.js:10',
      'other /elsewhere/server-main/server/a.js:3',
    ]);
  });

  it('returns nothing for a profile without samples', () => {
    expect(topSelfTime({ nodes: [] })).toEqual([]);
  });
});
