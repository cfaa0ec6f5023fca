import express from 'express';
import request from 'supertest';
import { ContentSecurityPolicies } from './content-security-policy';

describe('ContentSecurityPolicies', () => {
  it('builds one policy per distinct origin set, and allows exactly those origins', async () => {
    const policies = new ContentSecurityPolicies();
    const one = ['https://a.example.com'];
    expect(policies.for([...one])).toBe(policies.for([...one]));
    expect(policies.for(['https://b.example.com'])).not.toBe(policies.for(one));
    const app = express().use(policies.for(one), (_req, res) => void res.end());
    const header = String((await request(app).get('/')).headers['content-security-policy']);
    expect(header).toContain("script-src 'self' https://a.example.com;");
    expect(header).not.toContain('b.example.com');
  });
});
