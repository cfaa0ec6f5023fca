import express from 'express';
import request from 'supertest';
import { sendJsonBytes } from './send-json';

describe('sendJsonBytes', () => {
  const app = express();
  const whole = Buffer.from('{"name":"Zoë"}', 'utf8');
  const parts = [Buffer.from('{"a":', 'utf8'), Buffer.from('[1,2],"b":', 'utf8'), Buffer.from('"ü"}', 'utf8')];
  app.get('/whole', (_req, res) => sendJsonBytes(res, whole));
  app.get('/parts', (_req, res) => sendJsonBytes(res, parts, 201));

  it('sends one buffer with its byte length and the JSON content type', async () => {
    const response = await request(app).get('/whole');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(whole.length));
    expect(response.body).toEqual({ name: 'Zoë' });
  });

  it('sends several buffers as one body, in order, with their total length', async () => {
    const response = await request(app).get('/parts');
    expect(response.status).toBe(201);
    expect(response.headers['content-length']).toBe(String(Buffer.concat(parts).length));
    expect(response.body).toEqual({ a: [1, 2], b: 'ü' });
  });

  it('answers HEAD with the headers only', async () => {
    const response = await request(app).head('/parts');
    expect(response.headers['content-length']).toBe(String(Buffer.concat(parts).length));
    expect(response.text).toBeUndefined();
  });
});
