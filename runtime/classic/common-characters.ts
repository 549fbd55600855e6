/**
 * Frequent characters of the languages of classic archives: the tie-breaker of encoding detection
 * (text-encoding.ts). GBK accepts almost any byte pair, so Korean (cp949) or Big5 text often decodes
 * "without error" as cp936, and GB2312 text as cp950; the right decoding is the one whose characters are
 * common in its language (a wrong one gives a scatter of rare characters). Each list holds the most
 * frequent characters of running text plus the vocabulary of item and skill texts; exactness does not
 * matter, only that correct decodings score far higher than wrong ones.
 */

/** Frequent simplified Chinese characters (cp936). */
const COMMON_SIMPLIFIED =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞攻击伤害增续秒魔智神防御装备武器技能冷却消耗恢复怪物副本角色职业等级经验金币道具';

/** Frequent traditional Chinese characters (cp950). */
const COMMON_TRADITIONAL =
  '的一是在不了有和人這中大為上個國我以要他時來用們生到作地於出就分對成會可主發年動同工也能下過子說產種面而方後多定行學法所民得經十三之進著等部度家電力裡如水化高自二理起小物現實加量都兩體制機當使點從業本去把性好應開它合還因由其些然前外天政四日那社義事平形相全表間樣與關各重新線內數正心反你明看原又麼利比或但質氣第向道命此變條只沒結解問意建月公無系軍很情者最立代想已通並提直題黨程展五果料象員革位入常文總次品式活設及管特件長求老頭基資邊流路級少圖山統接知較將組見計別她手角期根論運農指幾九區強放決西被幹做必戰先回則任取據處隊南給色光門即保治北造百規熱領七海口東導器壓志世金增爭濟階油思術極交受聯什認六共權收證改清己美再採轉更單風切打白教速花帶安場身車例真務具萬每目至達走積示議聲報鬥完類八離華名確才科張信馬節話米整空元況今集溫傳土許步群廣石記需段研界拉林律叫且究觀越織裝影算低持音眾書布復容兒須際商非驗連斷深難近礦千周委素技備半辦青省列習響約支般史感勞便團往酸歷市克何除消構府稱太準精值號率族維劃選標寫存候毛親快效斯院查江型眼王按格養易置派層片始卻專狀育廠京識適屬圓包火住調滿縣局照參紅細引聽該鐵價嚴龍飛攻擊傷害續秒魔智神防禦備武冷卻耗恢怪副角色職驗幣';

/** Frequent Korean syllables (cp949). */
const COMMON_HANGUL =
  '이의다는에을하고가한지로기사서도를인대어자리수시정적나그해있부아전주상일게보니면것라소들으제장개경여우성원계공과비관구생내동문요무유방만러습히때미간중화위안모연야마오저물발조진날말실행식결신통치력국세회당되했드까처데합번추격속피증효초및각씩최등급체템템착용스킬능템감소증가지속시간동안적중회피물리마법';

function setOf(chars: string): ReadonlySet<string> {
  return new Set(chars);
}

export const COMMON_CHARACTERS: Readonly<Record<string, ReadonlySet<string>>> = {
  cp936: setOf(COMMON_SIMPLIFIED),
  cp950: setOf(COMMON_TRADITIONAL),
  cp949: setOf(COMMON_HANGUL),
  'utf-8': setOf(COMMON_SIMPLIFIED + COMMON_TRADITIONAL + COMMON_HANGUL),
};

/** Share of the non-ASCII characters of `text` that are in `common` (0 when there are none). */
export function commonShare(text: string, common: ReadonlySet<string>): number {
  let total = 0;
  let hits = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) continue;
    total++;
    if (common.has(ch)) hits++;
  }
  return total === 0 ? 0 : hits / total;
}
