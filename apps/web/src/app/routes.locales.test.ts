import { canAccessRoute, MENU_GROUPS, ROLES, ROUTES } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/language';
import { type Dict, leafKeys } from '../i18n/types';
import { routeLocales } from './routes.locales';

/**
 * Simplified/traditional character pairs (simplified first). Only characters whose two forms differ and
 * whose simplified form is not itself standard Traditional usage (so not 出, 查, 限, 言, 台, 里, 系 ...).
 */
const PAIRS =
  '订訂单單户戶设設统統计計账帳帐帳记記录錄码碼务務术術维維护護审審询詢详詳细細导導赏賞态態监監测測预預览覽' +
  '银銀币幣额額时時间間创創确確认認证證权權页頁签簽语語据據库庫无無数數链鏈节節点點网網关關线線动動脚腳调調' +
  '机機转轉实實体體产產发發试試办辦项項个個异異冻凍国國际際宝寶亚亞错錯误誤验驗资資团團队隊读讀补補汇匯总總' +
  '报報类類结結纪紀讯訊闸閘图圖绑綁编編辑輯删刪请請输輸状狀选選开開闭閉这這为為钱錢卖賣买買级級运運营營换換' +
  '执執们們尔爾达達过過还還进進门門问問题題风風险險条條华華广廣东東区區号號';
const chars = [...PAIRS];
const SIMPLIFIED_ONLY = new Set(chars.filter((_, i) => i % 2 === 0));
const TRADITIONAL_ONLY = new Set(chars.filter((_, i) => i % 2 === 1));

const routeNames = [...new Set(ROUTES.map((r) => r.name))].sort();

function leafValues(dict: Dict): string[] {
  return Object.values(dict).flatMap((v) => (typeof v === 'string' ? [v] : leafValues(v)));
}

function hasAny(text: string, set: ReadonlySet<string>): boolean {
  return [...text].some((c) => set.has(c));
}

describe('routeLocales', () => {
  it('lists the character pairs as pairs of distinct characters', () => {
    expect(chars.length % 2).toBe(0);
    expect(SIMPLIFIED_ONLY.size).toBe(chars.length / 2);
    expect([...SIMPLIFIED_ONLY].filter((c) => TRADITIONAL_ONLY.has(c))).toEqual([]);
  });

  it('has every language and nothing else', () => {
    expect(Object.keys(routeLocales).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const language of LANGUAGES) {
    describe(language, () => {
      const dict: Dict = routeLocales[language];
      const route: Record<string, string> = routeLocales[language].route;

      it('has a title for exactly every route name', () => {
        expect(Object.keys(route).sort()).toEqual(routeNames);
      });

      it('has a title for exactly every menu group', () => {
        expect(Object.keys(routeLocales[language].menu).sort()).toEqual([...MENU_GROUPS].sort());
      });

      it('has only the route and menu namespaces', () => {
        const expected = [...routeNames.map((n) => `route.${n}`), ...MENU_GROUPS.map((g) => `menu.${g}`)].sort();
        expect(leafKeys(dict)).toEqual(expected);
      });

      it('has no empty or padded title', () => {
        for (const text of leafValues(dict)) {
          expect(text.trim()).not.toBe('');
          expect(text).toBe(text.trim());
        }
      });

      it('gives distinct titles to the pages each role can open (root only redirects to home)', () => {
        for (const role of ROLES) {
          const open = ROUTES.filter((r) => r.redirect === undefined && canAccessRoute(r, role));
          const titles = open.map((r) => route[r.name]);
          expect(new Set(titles).size, role).toBe(titles.length);
        }
      });

      it('names a page without its role: no (CS), (supplier), (merchant), (read-only) suffix', () => {
        const suffix =
          /[（(](客服|码商|碼商|商户|商戶|只读|唯讀|超管|CS|supplier|merchant|read-only|super admin)[）)]$/;
        for (const r of ROUTES) expect(route[r.name], r.name).not.toMatch(suffix);
      });
    });
  }

  it('writes en-US without Chinese characters', () => {
    for (const text of leafValues(routeLocales['en-US'])) expect(text).not.toMatch(/\p{Script=Han}/u);
  });

  it('writes zh-CN in simplified characters', () => {
    for (const text of leafValues(routeLocales['zh-CN'])) {
      expect(
        [...text].filter((c) => TRADITIONAL_ONLY.has(c)),
        text,
      ).toEqual([]);
    }
  });

  it('writes zh-TW in traditional characters', () => {
    for (const text of leafValues(routeLocales['zh-TW'])) {
      expect(
        [...text].filter((c) => SIMPLIFIED_ONLY.has(c)),
        text,
      ).toEqual([]);
    }
  });

  it('makes zh-TW differ from zh-CN wherever a simplified-only character is involved', () => {
    const cn: Record<string, string> = routeLocales['zh-CN'].route;
    const tw: Record<string, string> = routeLocales['zh-TW'].route;
    const convertible = routeNames.filter((n) => hasAny(cn[n] ?? '', SIMPLIFIED_ONLY));
    const differing = convertible.filter((n) => tw[n] !== cn[n]);
    expect(convertible.length).toBeGreaterThan(routeNames.length / 2);
    expect(differing.length / convertible.length).toBeGreaterThanOrEqual(0.8);
  });
});
