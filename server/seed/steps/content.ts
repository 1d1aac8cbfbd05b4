// The customer mini-program's fixed content: banners, notices, the service entries it offers and the
// paths of its pages. No draws from the PRNG.
import { insertMany, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";

export async function seedContent(seed: Seed): Promise<void> {
  const { tx, ago } = seed;
  await insertMany(tx, "banner", banners(ago));
  await insertMany(tx, "notice", notices(ago));
  await insertMany(tx, "service_entry", SERVICE_ENTRIES);
  await insertMany(tx, "mini_page_url", MINI_PAGE_URLS);
}

const banners = (ago: Seed["ago"]): Rows["banner"][] => [
  {
    title: "Songkran iced drinks week",
    picture: "/uploads/demo/banner/songkran-drinks.jpg",
    skip_type: "page",
    url: "/pages/goods/list?cate_id=2",
    status: 1,
    sort: 1,
    created_at: ago(40),
  },
  {
    title: "Charge for free: watch a 15-second ad",
    picture: "/uploads/demo/banner/free-charge.jpg",
    skip_type: "page",
    url: "/pages/charge/index",
    status: 1,
    sort: 2,
    created_at: ago(35),
  },
  {
    title: "New: EV wallboxes at Terminal 21",
    picture: "/uploads/demo/banner/ev-terminal21.jpg",
    skip_type: "url",
    url: "https://www.example.com/news/ev-terminal-21",
    status: 1,
    sort: 3,
    created_at: ago(20),
  },
  {
    title: "Order lunch from the mall kitchen",
    picture: "/uploads/demo/banner/meal-order.jpg",
    skip_type: "mini_program",
    appid: "wx8f3a2b1c4d5e6f70",
    secret: "demo-secret-not-real",
    status: 1,
    sort: 4,
    created_at: ago(15),
  },
  {
    title: "Water Festival opening hours",
    picture: "/uploads/demo/banner/water-festival.jpg",
    skip_type: "none",
    status: 0,
    sort: 5,
    created_at: ago(80),
  },
];

const notices = (ago: Seed["ago"]): Rows["notice"][] => [
  {
    title: "Maintenance at Central Market, Phnom Penh",
    status: 1,
    sort: 1,
    content: "<p>The machines at Central Market will be restocked and serviced on Sunday from 06:00 to 08:00.</p>",
    created_at: ago(3),
  },
  {
    title: "Refunds now arrive within 24 hours",
    status: 1,
    sort: 2,
    content: "<p>Refunds to social-app wallets and KHQR are now processed the same day.</p>",
    created_at: ago(12),
  },
  {
    title: "New cable stations in Chiang Mai",
    status: 1,
    sort: 3,
    content: "<p>Ten new charging-cable stations are live around Nimman and the university.</p>",
    created_at: ago(25),
  },
  {
    title: "Price update for imported snacks",
    status: 0,
    sort: 4,
    content: "<p>Imported snack prices change on the 1st of next month; lanes update automatically.</p>",
    created_at: ago(50),
  },
  {
    title: "Shenzhen dormitory dryers: UV lamps replaced",
    status: 1,
    sort: 5,
    content: "<p>All dryers at Shenzhen University dormitories have new UV lamps.</p>",
    created_at: ago(8),
  },
];

const SERVICE_ENTRIES: Rows["service_entry"][] = [
  {
    type: "equipment_issue",
    title: "Machine did not dispense",
    logo: "/uploads/demo/service/not-dispensed.png",
    status: 1,
    sort: 1,
  },
  {
    type: "equipment_issue",
    title: "Cable or charger not working",
    logo: "/uploads/demo/service/cable.png",
    status: 1,
    sort: 2,
  },
  {
    type: "order_issue",
    title: "Charged but no order",
    logo: "/uploads/demo/service/payment.png",
    status: 1,
    sort: 3,
  },
  { type: "order_issue", title: "Ask for a refund", logo: "/uploads/demo/service/refund.png", status: 1, sort: 4 },
  {
    type: "system_bug",
    title: "App or mini-program error",
    logo: "/uploads/demo/service/bug.png",
    status: 1,
    sort: 5,
  },
  { type: "other", title: "Suggestions", logo: "/uploads/demo/service/idea.png", status: 0, sort: 6 },
];

const MINI_PAGE_URLS: Rows["mini_page_url"][] = [
  { name: "Home", path: "/pages/index/index", type: "tab_bar", remark: "Device page after scanning the code." },
  {
    name: "Order list",
    path: "/pages/order/list",
    type: "tab_bar",
    remark: "Customer's own orders, newest first.",
  },
  { name: "Me", path: "/pages/user/index", type: "tab_bar" },
  { name: "Goods list", path: "/pages/goods/list", type: "page", remark: "Takes cate_id to open one category." },
  { name: "Goods detail", path: "/pages/goods/detail", type: "page" },
  { name: "Charging", path: "/pages/charge/index", type: "page", remark: "Cable and wallbox packages." },
  { name: "Service request", path: "/pages/service/create", type: "page" },
  { name: "Recycling delivery", path: "/pages/recycle/index", type: "page" },
];
