// The backend of the passed-through runs: a raw node:http server with keep-alive that stands in for
// Medusa. `GET /store/products…` answers a catalogue of three products (what `serve --backend` reads at
// start); any other path answers the same product JSON of about 2 KB. The bench starts it outside the
// measured process tree, pinned to the load generator's core, so that its CPU is not counted.
// Usage: node bench/ceilings/origin.mjs <port>
import { createServer } from 'node:http';

const [port] = process.argv.slice(2);

const product = (n) => ({
  id: `prod_01BENCH${n}`,
  title: `Bench product ${n}`,
  handle: `bench-product-${n}`,
  thumbnail: `https://cdn.example.com/bench-product-${n}.png`,
  variants: ['S', 'M', 'L'].map((size) => ({ id: `variant_01BENCH${n}${size}`, title: size, sku: `BENCH-${n}-${size}` })),
});
const products = [1, 2, 3].map(product);
const catalogue = Buffer.from(JSON.stringify({ products, count: products.length, offset: 0, limit: 200 }));

// A cart with two line items, padded with a description to about 2 KB: the size of a real Medusa answer.
const cart = {
  cart: {
    id: 'cart_01BENCH',
    currency_code: 'eur',
    email: 'shopper@bench.example',
    region_id: 'reg_01BENCH',
    items: products.slice(0, 2).map((p, i) => ({
      id: `cali_01BENCH${i}`,
      title: p.title,
      quantity: i + 1,
      unit_price: 1500 + i * 500,
      variant_id: p.variants[0].id,
      product_id: p.id,
      product_handle: p.handle,
      thumbnail: p.thumbnail,
    })),
    shipping_address: { first_name: 'Bench', last_name: 'Shopper', address_1: '1 Load Street', city: 'Porto', country_code: 'pt', postal_code: '4000-001' },
    total: 4500,
    subtotal: 4500,
    tax_total: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    metadata: { note: '' },
  },
};
cart.cart.metadata.note = 'x'.repeat(Math.max(0, 2048 - JSON.stringify(cart).length));
const body = Buffer.from(JSON.stringify(cart));

const headers = (bytes) => ({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.length) });
const catalogueHeaders = headers(catalogue);
const bodyHeaders = headers(body);

const server = createServer((req, res) => {
  // a request's body, if any, is read and dropped so that the connection can be reused
  req.resume();
  if (req.url.startsWith('/store/products')) {
    res.writeHead(200, catalogueHeaders);
    res.end(catalogue);
    return;
  }
  res.writeHead(200, bodyHeaders);
  res.end(body);
});
// HTTP keep-alive is node:http's default; a longer idle timeout keeps the proxies' pooled sockets open between runs
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1');
