/**
 * Stop words per language, in the folded form `terms` compares them in (lowercase, no diacritics).
 * Short lists of function words only: a word that could be what a reader searches for (`can`, `help`,
 * `new`) stays, since an index without it could never find it. Elided forms (`l'`, `qu'`, `don't`) leave
 * their one or two letters as tokens, hence `l`, `qu`, `t`.
 */
const list = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter(Boolean));

const english = list(`
  a about an and are as at be been being but by d did do does for from had has have he her him his how
  i if in into is it its ll m me my no nor not of on or our ours re s she so such than that the their
  them then there these they this those to too t us ve was we were what when where which who whom why
  will with would you your yours
`);

const french = list(`
  a afin ai au aux avec c ce ces cet cette d dans de des du elle elles en est et etaient etait ete etre
  eux il ils j je l la le les leur leurs lui m ma mais me mes moi mon n ne nos notre nous on ont ou par
  pas pour qu que quel quelle quels qui s sa se ses son sont sur t ta te tes toi ton tu un une vos votre
  vous y
`);

const german = list(`
  aber als am an auch auf aus bei bin bis bist da das dass dem den der des die dies diese diesem diesen
  dieser dieses du durch ein eine einem einen einer eines er es euch euer eure fur hat hatte ich ihm
  ihn ihr ihre im in ins ist ja jede jedem jeden jeder jedes mein meine mich mir mit nach nicht noch
  nur ob oder ohne sein seine sich sie sind so uber um und uns unser unsere unter vom von vor war waren
  was weil wenn wer wie wir wird zu zum zur
`);

const spanish = list(`
  a al como con cual cuando de del desde donde e el ella ellas ellos en entre era es esa ese eso esta
  estas este esto estos fue ha han hay la las le les lo los me mi mis mucho muy nos nosotros o os para
  pero por porque que quien se sea ser si sin sobre son su sus te ti tu tus u un una unas uno unos
  usted ustedes y ya yo
`);

const italian = list(`
  a ad agli ai al alla alle allo anche che chi ci come con cui da dai dal dalla dalle degli dei del
  della delle dello di e ed gli ha hanno i il in io l la le lei lo loro lui ma mi ne negli nei nel
  nella nelle noi non o per piu quale quando questa queste questi questo se si sia sono su sua sue sui
  sul sulla suo suoi tra tu un una uno vi voi
`);

const portuguese = list(`
  a ao aos as com como da das de dela dele do dos e ela elas ele eles em entre era essa esse esta este
  eu foi ha isso isto lhe mais mas me meu minha na nas nao nem no nos o os ou para pela pelas pelo
  pelos por qual quando que se sem ser seu seus so sua suas tambem te tu um uma umas uns voce voces
`);

const dutch = list(`
  aan al als bij dan dat de den der deze die dit door een en er het hem hij hoe hun ik in is je met na
  naar niet nog of om ook op over te tot u uit van voor was wat we wel wie wij zal ze zij zijn zo
`);

/** By GitBook language code, without the region (`pt-br` reads `pt`). */
export const STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: english,
  fr: french,
  de: german,
  es: spanish,
  it: italian,
  pt: portuguese,
  nl: dutch,
};
