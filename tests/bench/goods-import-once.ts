// One run of the goods import bench (npm run bench -- --import-only runs it with the device import):
// npx tsx --expose-gc tests/bench/goods-import-once.ts [ROWS]
import { benchGoodsImport } from "./import.ts";

console.log(await benchGoodsImport(Number(process.argv[2] ?? 100_000), (l) => console.error(l)));
process.exit(0);
