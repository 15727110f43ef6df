// Filler vocabulary for redaction: harmless everyday words (nature, food, objects, colours) that are one
// token with a leading space in both o200k_base and cl100k_base, so filler text tokenizes about as densely
// as English prose and code identifiers. Chosen by hand to be benign; checked with the tokenizer once.

/** Filler words, grouped by length (2–9 letters). */
export const FILLER_WORDS: readonly string[] = (
  'am an as at be by do go he if in is it me my no of on or so to up us we ax ox ' +
  'ant ash bay bee big bun cob cod cub cup egg elk elm fig fir fly fog fox gum ham hat hen jam ' +
  'jar key kit low mat mug new nut oak oat old one owl pan pea pen pie pin pod pot ram red row rug run ' +
  'sap sew six tan tea ten tin top tub two yak bake bark barn bear blue boat bowl calm cart clay cook ' +
  'cozy crow cyan deep deer dell desk door dove draw drum duck east edge farm felt fern five flat fork ' +
  'four frog gate goat gold gray grow hail high hike hill hook horn iron jade jump kind kite knit lace ' +
  'lake lamb lamp lane late leaf left lime lion long mesa mill mint mist mole moss nail navy neat nine ' +
  'noon page palm path peak pear pine pink plum poem pond pony rain read reef rice ride road root rope ' +
  'rose ruby rust sack sage sail sand seal seed silk sing sled slug snow sock soft song soup swim tall ' +
  'teal tent tidy tram tray tune twig vale vase very walk warm well west wide wind wolf wool worm zinc ' +
  'amber apple azure basil beige bench berry birds black bloom brave bread brown brush cabin camel ' +
  'canoe cedar chair chalk chest cliff climb clock cloth cloud coast cocoa coral crane cream creek ' +
  'dance delta denim diary dozen dream eagle early eight fence ferry flour flute frame fresh frost ' +
  'glass goose gorge grape green happy hello honey horse inlet ivory lemon linen llama lucky mango ' +
  'maple marsh maybe merry mouse north novel ocean often olive onion paint panda paper pasta peach ' +
  'pearl piano plain plant plate plaza proud quiet quite ridge right river robin round salad satin ' +
  'sauce scarf seven shark sheep shelf shore short slate sleep slope small south spoon stamp stone ' +
  'stool storm story sugar sunny swamp sweet swift table three tiger toast today towel tower train ' +
  'trees trout truck verse wagon whale wheel white write yacht young almond always anchor autumn avenue ' +
  'bakery bamboo banana barley basket bottle bottom branch breeze bridge bright bronze bucket butter ' +
  'button candle canvas canyon carpet carrot castle celery center chapel cheese cherry chorus circus ' +
  'citrus clever clouds coffee cookie copper corner cotton desert drawer fishes forest garden garlic ' +
  'gentle ginger guitar hammer harbor helmet inside island jacket jungle kettle ladder letter marble ' +
  'market melody middle mirror museum narrow needle nickel orange parade peanut pencil pepper pickle ' +
  'picnic pigeon pillow pocket polite potato purple quartz rabbit rather really rhythm rivers rocket ' +
  'saddle salmon shovel silver smooth spider spring square stable steady stones stream street summer ' +
  'summit sunset thread tomato travel turtle twenty valley velvet violet violin voyage walnut window ' +
  'winter yellow yogurt animals avocado bicycle blanket blossom cabbage chapter coconut compass cottage ' +
  'crimson crystal curtain cushion diamond evening flowers forests gallery gardens glacier granite ' +
  'holiday hundred islands jasmine journal journey lantern leather leopard lettuce library lobster ' +
  'morning outside parsley pasture perhaps plateau playful pudding pumpkin rainbow scooter spinach ' +
  'sunrise theater thunder trumpet vanilla village volcano weather weekend broccoli carriage cheerful ' +
  'cinnamon colorful cucumber envelope festival graceful kindness lavender mountain neighbor notebook ' +
  'peaceful sandwich squirrel sunshine thousand tomorrow twilight vacation adventure afternoon ' +
  'beautiful breakfast butterfly discovery happiness mountains pineapple raspberry sometimes spaghetti ' +
  'wonderful'
)
  .trim()
  .split(' ');
