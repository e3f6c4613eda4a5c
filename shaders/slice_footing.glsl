// Footing (ground or a drop), the lanes, the goal, the ghost, the ramp marks, the traced slice, the player.
// (a chunk of slice.frag, joined to it by moderngl's ctx.includes: #include "slice_footing")
// -- footing: ground or a drop ------------------------------------------------------------

const vec3 DROP_COLOUR = vec3(0.035, 0.035, 0.065);

// Whether the face crossed into `cell` on `axis` is one a mover rests on, and if so whether it
// holds: 1 ground (held by both downs), 0 a drop (it holds against one down and not the other:
// step on it and you slip kata, or fall in z), -1 not a face anything rests on.  A top face
// (+z) holds when the cell kata of the one above it is solid or the cell itself is a ramp; a
// face ana (+w) holds when the cell below the one ana of it is solid.  `above` is the cell a
// mover would stand in.  One texel read, once per pixel: the texel of `above` carries whether
// the cells kata of it and below it are solid (anabasis.picture.clearance.near); `above` is the
// cell in front of the face when it is one a mover rests on, and `texel` its texel (read once
// for this and the occlusion).
int footing(ivec4 cell, int axis, vec4 rd, uint code, uint texel, out ivec4 above) {
    bool top = axis == 2;
    if (!(top ? rd.z < 0.0 : axis == 3 && rd.w < 0.0)) return -1;
    above = cell + (top ? ivec4(0, 0, 1, 0) : ivec4(0, 0, 0, 1));
    if (above.z >= u_size.z || (!WRAPS && above.w >= u_size.w)) return -1;  // the ceiling
    if ((texel & TEXEL_CODE_MASK) != CELL_EMPTY) return -1;  // covered: only seen through a cutaway
    if (top && code >= CELL_RAMP_XP && code <= CELL_RAMP_YN) return 1;
    uint held = top ? TEXEL_KATA_SOLID : TEXEL_BELOW_SOLID;
    return (texel & held) == held ? 1 : 0;
}

// The 4D axis the view's up runs along most (z or w).
int view_up() {
    return (abs(u_basis[2].z) >= abs(u_basis[2].w)) ? 2 : 3;
}

// Whether `cell` (unwrapped) lies in the pawn's column down the view's up axis: the pawn's
// own cell or one under it (w wrapped where the room wraps).
bool under_pawn(ivec4 cell) {
    ivec4 d = cell - u_player_cell;
    if (WRAPS) d.w = ((d.w % u_size.w) + u_size.w) % u_size.w;  // (a drop's pixels only)
    int a = view_up();
    if (WRAPS && a == 3 && d.w > 0) d.w -= u_size.w;  // (under it: kata, round the turn)
    int up = d[a];
    d[a] = 0;
    return all(equal(d, ivec4(0))) && up <= 0;
}

// A cut face: one whose cell in front (toward the eye) is solid, so that it shows only because
// a cutaway took that cell.  Where the tunnel before the pawn took it, the face is striped dark
// across, a block cut through, never a floor one lower (a blind player read the tunnel's stumps
// in 2.7's walls as sunken floor cells); by the point's place in its cell (f), so the stripes
// lie on the grid, still while the pawn walks.  Where the ceiling (or the wrap band) took it,
// the face is a top with a block over it, which nothing stands on: hatched as the room's top
// is (below; bold dark stripes there covered most of a made room with w up).
const vec3 CUT_COLOUR = vec3(0.10, 0.10, 0.14);
vec3 cut_face(vec3 col, vec4 f, float line) {
    float k = (f.x + f.y + f.z + f.w) * 3.0;
    float d = abs(fract(k) - 0.5) * (1.0 / 3.0);  // in cells, from a stripe's middle
    float stripe = 1.0 - SOFT_STEP(0.06, 0.06 + line, d);
    return mix(col * 0.72, CUT_COLOUR, 0.85 * stripe);
}

// The lid of a crate the ceiling cuts, on the top under it (`f`: the point's place in that
// top's cell; `axis`: the top's): the crate's planks in its dark frame, CRATE_INSET in from
// the cell's sides along x and y as its box is, and the top round it a little shaded.
vec3 crate_lid(vec3 col, vec4 f, int axis) {
    float inside = 1.0;  // how far in from the lid's edge, in cells (along x and y)
    for (int a = 0; a < 2; a++) {
        if (a == axis) continue;
        inside = min(inside, min(f[a], 1.0 - f[a]) - CRATE_INSET);
    }
    if (inside < 0.0) return col * 0.8;  // (in its foot's full shadow, a dark ring round the
    // lid, the lid read to a blind player as sunk in a cut-out, t291)
    return albedo(CELL_CRATE, ivec4(0), 0, f, axis, inside, 0.0);  // (a crate's face, its frame
    // from the lid's edge)
}

// Whether the cell `front`, in front of a face, lies where the ceiling or the wrap band cuts
// (not the tunnel, nor the window round the pawn).
bool over_ceiling(ivec4 front) {
    bool over = dot(vec4(front) + 0.5 - u_centre, u_basis[2]) >= u_ceiling + 0.5 - SNAP;
#ifdef WRAP
    over = over || float(front.w) >= u_wband.y - SNAP || float(front.w) + 1.0 <= u_wband.x + SNAP;
#endif
    return over;
}

// A top along the view's up axis, seen from above.
bool is_top(int axis, vec4 rd) {
    return axis >= 2 && rd[axis] < 0.0 && abs(u_basis[2][axis]) >= 0.5;
}

// A raised top's bevel: its edges turned up and left on screen lit, those turned down and
// right shaded, as a raised tile is drawn (the light from the top left).  Hatched flat, a
// wall one high beside the pawn read as striped floor at its height to three blind players
// of five (level 2); framed dark all round, as sunken.  By the point's place in its cell
// along the slice's across and depth axes, and where those edges lie on screen (the camera's
// right and up: u_bevel, worked out once a frame), and the neighbour bits the walk kept (Hit.near,
// as the lip reads them): no texel read.
float bevel(uint beside, int axis, vec4 f) {
    float k = 0.0;
    for (int n = 0; n < 2; n++) {
        int j = (n == 0) ? u_ao_a[axis] : u_ao_b[axis];
        bool plus = f[j] >= 0.5;
        uint bit = uint(2 * j + (plus ? 1 : 0));
        if (((beside >> bit) & uint(1)) == uint(0)) {  // (a neighbour solid: no edge there)
            float w = 1.0 - SOFT_STEP(0.09, 0.11, min(f[j], 1.0 - f[j]));  // (a crisp chamfer: a
            // soft one looked rounded, and level 3's walls once read as ramps for that)
            k += w * (plus ? u_bevel[j] : -u_bevel[j]);
        }
    }
    return 1.0 + 0.7 * clamp(k, -1.0, 1.0);
}

// With w up, a block's side over the floor you stand on: no step climbs along w (only a
// ramp takes you ana).  Drawn plain, one high, such a side read as a step to climb, as z's
// are in the stand view ("the two views draw the same shape with opposite meanings", t299;
// t300).  Hatched upright in light lines, as a wall's top is: a wall to you.
vec3 rise_side(vec3 col, vec4 f, int axis, float line) {
    float k = (f.x + f.y + f.z + f.w - f[axis]) * 4.0;  // (along the face: its two axes)
    float d = abs(fract(k) - 0.5) * 0.25;  // in cells, from a hatch line's middle
    float hatch = 1.0 - SOFT_STEP(0.014, 0.014 + line, d);
    return mix(col * 0.8, max(col * 1.6, vec3(0.5)), 0.8 * hatch);
}

// The room's top: the top face of a block in the room's last layer of z (or of w, where w does
// not wrap) is one nothing can stand on (the room ends over it).  Dark in its slice's tone and
// hatched across in light lines (through its middle too), as a plan draws cut stone: a blind
// player took such tops in 2.8 for floors to climb onto; framed dark inset, level 2's walls
// beside the pawn read to the next as "inset floor tiles, hatches" (sunken), and pale and
// hatched, as "a pale floor area".  Walls to the top now read as one mass of another stuff,
// the floors between them plain and lighter.  Darker still (a third of the tone, the lines
// quieter), for five blind players who found a made room "a sea of hatched walls": two of the
// next ten read the walls as sunken floor, and the sea stayed a sea; so back to half.
const vec3 ROOM_TOP_COLOUR = vec3(0.11, 0.125, 0.17);
bool room_top(ivec4 cell, int axis, vec4 rd) {
    if (!is_top(axis, rd)) return false;
    return axis == 2 ? cell.z == u_size.z - 1 : (!WRAPS && cell.w == u_size.w - 1);
}
vec3 room_top_cap(vec3 col, vec4 f, float line, uint beside, int axis) {
    vec3 cap = col * 0.5;  // the slice's own tone, dark (not the sky's grey-blue)
    float k = (f.x - f.y + f.z - f.w) * 4.0;  // (across the cut stripes' way: f summed)
    float d = abs(fract(k) - 0.5) * 0.25;  // in cells, from a hatch line's middle
    float hatch = 1.0 - SOFT_STEP(0.014, 0.014 + line, d);
    return mix(cap, col * 1.1, 0.8 * hatch) * bevel(beside, axis, f);
}


// A top's edge over a step down: where the cell beside the top, at its level, is empty, what
// lies past that edge is lower.  An edge whose side the eye sees (or sees on end) is drawn as
// a dark lip a few pixels wide, heavier than the thin line between two tops at one level.  An
// edge whose side looks away from the eye (u_toward) shows no side at all, and there a dark
// line read as the far floor's own front, the far floor raised: level 2's wall to the room's
// top before the pawn, and level 3's wall in the pawn's slice with w up, read to blind
// players as low floor the pawn could step onto.  That edge is lit instead (the rim a raised
// top catches), and the floor past it lies in the top's shadow (occlusion).  No read of its
// own: the walk's read of the top's cell kept its neighbour bits (Hit.near); the cells over
// the top (cut away by the ceiling, or not) say nothing.
const float LIP_DARK = 0.35;   // the lip's darkest, as a share of the top's colour
const float LIP_LIGHT = 1.5;   // the far rim's lightest, on the top's own colour (unshaded)
const float LIP_CELLS = 0.07;  // its width, in cells (and never under three pixels)
// The top's colour `col` with its lips: dark on the edges the eye sees, and the far rim lit
// from `base` (the top's colour before its occlusion, which a wall behind the rim, cut away
// or not, would darken: the rim is a step down all the same).
vec3 lip(vec3 col, vec3 base, uint beside, ivec4 cell, int axis, vec4 f) {
    float inv_width = min(g_inv_line * (1.0 / 3.0), 1.0 / LIP_CELLS);
    float dark = 1.0;
    float rim = 0.0;
    for (int n = 0; n < 2; n++) {
        int j = (n == 0) ? u_ao_a[axis] : u_ao_b[axis];
        bool plus = f[j] >= 0.5;
        uint bit = uint(2 * j + (plus ? 1 : 0));
        if (((beside >> bit) & uint(1)) == uint(0)) {
            float edge = 1.0 - soft_step(min(f[j], 1.0 - f[j]), inv_width);
            // (lit only over a step down in the room: at the room's own far edge a lit rim
            // made a floor there read as a ledge over the floors before it, level 3's back
            // row as higher than its goal row to four blind players)
            int next = cell[j] + (plus ? 1 : -1);
            bool in_room = j == 3 ? (WRAPS || (next >= 0 && next < u_size.w))
                                  : (next >= 0 && next < u_size[j]);
            if (in_room && (plus ? u_toward[j] : -u_toward[j]) < -0.5) {
                rim = max(rim, edge);
            } else {
                dark = min(dark, mix(1.0, LIP_DARK, edge));
            }
        }
    }
    return mix(col * dark, base * LIP_LIGHT, rim);
}

// A drop's face: a dark pit with its rim still drawn, so that it reads as a hole to fall
// through, never as the path.  Inside the rim, a shaft: its far sides, where the ray (`rd`)
// would meet them going on down through the cell, lit at the top and dark a cell down.
// Shaded from the rim in (a lighter band round a dark middle), it read to a blind player
// as a floor sunk one lower, not a fall (t256, level 1's crossed cells).
vec3 drop_face(vec3 col, vec4 f, vec4 rd, int axis, float edge, float line) {
    float rim = line_step(0.05, 3.0, edge);
    float deep = 4.0;  // how far down the shaft the ray meets its side, in cells
    for (int a = 0; a < 4; a++) {
        if (a == axis || abs(rd[a]) < HAIR) continue;
        deep = min(deep, abs(rd[axis]) * (((rd[a] > 0.0) ? 1.0 : 0.0) - f[a]) / rd[a]);
    }
    vec3 pit = mix(col * 0.3, DROP_COLOUR, smoothstep(0.0, 0.8, deep));
    return mix(col * 0.8, pit, 0.35 + 0.6 * rim);
}

// Whether a mover put in `cell` (empty) falls out of the room as it settles, the crates kept
// where they are (the rule book's settling, one mover alone): down in z while the cell below
// is free, else kata while nothing holds it from kata and the cell kata is free; into the void
// (under the room, or kata of its first slice where w does not wrap) it falls out, and where
// w wraps, W kata steps with no z step between are an endless fall.  Asked only of a drop's
// pixels (a few of the frame), a texel or two a step.  The map walks the same fall
// (SliceMap.out); the tests hold both to anabasis.engine.rules.falls_out.  The pit you die in
// and the one you slip through to a floor looked alike, and two blind players took level 5's
// bridge gap for a death.  settle_slips walks it and counts: how many slices kata the mover
// slips before it rests (0: held at once), or -1 where it falls out.  A pit two slices deep
// or more has a rim in it for each slice past the first (slip_rims), as the map has a bar
// a slice: in the picture a pit a crate drops two slices down looked like every other
// (t284, t285).
int settle_slips(ivec4 p) {
    int run = 0;  // kata steps since the last z step
    int slips = 0;
    int most = u_size.z * (u_size.w + 1) + u_size.w + 1;
    for (int i = 0; i < most; i++) {
        if (p.z == 0) return -1;
        uint below = code_at(p - ivec4(0, 0, 1, 0));
        if (below == CELL_EMPTY) { p.z -= 1; run = 0; continue; }
        if (below >= CELL_RAMP_XP && below <= CELL_RAMP_YN) return slips;  // a ramp holds
        if (!WRAPS && p.w == 0) return -1;
        ivec4 kata = p - ivec4(0, 0, 0, 1);
        if (code_at(kata) != CELL_EMPTY) return slips;
        p = kata;
        run += 1;
        slips += 1;
        if (WRAPS && run >= u_size.w) return -1;
    }
    return slips;
}

bool falls_out(ivec4 p) {
    return settle_slips(p) < 0;
}

// A pit that slips you two slices or more: a rim inside its rim for each slice past the
// first (at most three), as a shaft's ledges seen from above, deeper in.  Drawn as light
// bars across its middle, as the map draws them, the pits read to a blind player as vents
// or grates to walk over (t287).
vec3 slip_rims(vec3 col, vec4 f, int axis, int slips) {
    float inside = 1.0;  // how far in from the cell's edge, in cells (along the face)
    for (int a = 0; a < 4; a++) {
        if (a == axis || abs(u_basis[3][a]) > 0.5) continue;  // (the face's two axes)
        inside = min(inside, min(f[a], 1.0 - f[a]));
    }
    float ring = 0.0;
    float deep = 1.0;  // darker past each rim, a well going down (its rims alone, a faint
    // square in a pit, blind players of a round told shafts from pits by the map alone:
    // t298, t299, t300)
    for (int i = 1; i < min(slips, 4); i++) {
        float at = 0.10 + 0.09 * float(i);
        ring = max(ring, 1.0 - line_step(0.024, 1.0, abs(inside - at)));  // (0.012: faint, t305)
        deep *= mix(1.0, 0.45, SOFT_STEP(at, at + 0.02, inside));
    }
    return mix(col * deep, vec3(0.60, 0.62, 0.68), 0.85 * ring);
}

// Whether the step from the ramp underfoot carries you over cell `a`: the cell of your slice
// its landing is a slice ana or kata of (u_mark_lo, way +1 or -1), or one kata of that, down
// the pit it would drop you in: no fall-out cross there.  Crossed, in level 7's w-up view,
// "ramp ana to w 1" over it read to blind players as a fall.
bool ramp_carries(ivec4 a) {
#ifdef MARKS
    for (int i = 0; i < 2; i++) {
        float way = u_mark_way[i];
        ivec4 over = ivec4(floor(u_mark_lo[i] + 0.5)) - ivec4(0, 0, 0, int(way));
        if (abs(way) > 0.5 && abs(way) < 1.5 && all(equal(a.xyz, over.xyz)) && a.w <= over.w)
            return true;
    }
#endif
    return false;
}

// Whether the cell `a` (a mover's place over a pit) lies in a gap a ramp's step crosses: a
// column with nothing in it, beside a ramp of its slice leaning toward it, or over a ramp
// one slice kata (pose.crossed_gaps, u_crossed).  The map draws those with no cross; crossed
// here, in level 7's w-up view they read to blind players as ramps throwing you into the
// void.
bool crossed_gap(ivec4 a) {
    if (u_crossed_n == 0) return false;  // (most rooms: no loop)
    int w = a.w;
#ifdef WRAP
    w = ((w % u_size.w) + u_size.w) % u_size.w;
#endif
    for (int i = 0; i < u_crossed_n; i++) {
        if (u_crossed[i].x == a.x && u_crossed[i].y == a.y && u_crossed[i].z == w) return true;
    }
    return false;
}

// A pit you would fall out of the room from: a cross over it in the "fall out" mark's colour
// (u_out_colour), as the step's badge and the map draw one.  `f` is the point's place in its
// cell; the cross's arms run along the face's diagonals (of its two axes in the slice: the
// hidden axis's f is the slice's middle, nearest the centre, and is passed over).
vec3 out_mark(vec3 col, vec4 f, int axis, float line) {
    if (axis < 0) return col;
    vec4 g = abs(f - 0.5);
    g[axis] = 0.0;
    float a = max(max(g.x, g.y), max(g.z, g.w));
    float b = g.x + g.y + g.z + g.w - a - min(min(g.x, g.y), min(g.z, g.w));
    if (a > 0.3) return col;
    float arm = 1.0 - line_step(0.045, 1.5, a - b);
    return mix(col, u_out_colour, 0.85 * arm);
}

#ifdef HOLES
// A block's side that faces into a shaft open to below the room (the cell in front of it, and
// every cell under that one, empty: a mover there falls out of the room), with z up (the
// stand and both views).  Seen from the steep camera, such a shaft shows its far side and
// hardly its bottom, and lit as the tops are, it read to a blind player as a shallow well to
// step into ("a gap looked like a sunken floor").  Its sides darken fast under the room's
// top, as a shaft's do: it reads as a hole, crossed once at its top in the "fall out" colour.
// A texel read a cell down the shaft, on those sides' pixels only (the first is the one the
// occlusion read: `front_texel`).  Only in the HOLES variant, drawn with z up alone.
vec3 shaft_side(vec3 col, int axis, vec4 p, vec4 f, ivec4 cell, ivec4 front, uint front_texel,
                float line) {
    if (axis < 0 || axis == 2) return col;
    // a shaft, not a gap's open side: the cells beside the one in front, along the other
    // way across the screen, both solid; or a trench, the cell past it, away from this side,
    // solid (a tall wall's side over a wide gap, darkened and crossed at its top, read to a
    // blind player as a dark pillar with a cross on it; a trench three long, left lit, read
    // to another as a shallow recess to step into)
    int other = (axis == 0) ? ((abs(u_basis[3][1]) > 0.5) ? 3 : 1) : 0;
    uint sides = (front_texel >> (TEXEL_NEAR_SHIFT + uint(2 * other))) & uint(3);
    uint past = TEXEL_NEAR_SHIFT + uint(2 * axis + ((front[axis] > cell[axis]) ? 1 : 0));
    if (sides != uint(3) && ((front_texel >> past) & uint(1)) == uint(0)) return col;
    // (the room's own outer sides face out of it, onto nothing: no shaft)
    if (any(lessThan(front.xy, ivec2(0))) || any(greaterThanEqual(front.xy, u_size.xy))) return col;
#ifndef WRAP
    if (front.w < 0 || front.w >= u_size.w) return col;
#endif
    uint texel = front_texel;
    for (int z = front.z; z > 0; z--) {
        if ((texel & TEXEL_BELOW_SOLID) != uint(0)) return col;
        texel = texel_at(ivec4(front.x, front.y, z - 1, front.w));
        if ((texel & TEXEL_CODE_MASK) != CELL_EMPTY) return col;
    }
    if ((texel & TEXEL_BELOW_SOLID) != uint(0)) return col;
    col *= 0.5 - 0.3 * smoothstep(0.0, 1.5, float(u_size.z) - p.z);
    // crossed as the map crosses it (dark alone, the legend's "a dark pit: you slip kata"
    // read as a safe slip), on its side that faces the eye, once, at the shaft's top (the
    // cell over `front` out of the room or not empty), but where a ramp's step crosses it
    bool faces_eye = float(front[axis] - cell[axis]) * u_toward[axis] > 0.5;
    bool top = front.z == u_size.z - 1
        || (front_texel & (uint(1) << (TEXEL_NEAR_SHIFT + uint(2 * 2 + 1)))) != uint(0);
    return (faces_eye && top && !crossed_gap(front)) ? out_mark(col, f, axis, line) : col;
}

// A hole to the void: where a ray that hit nothing leaves the room through its bottom (z = 0
// with z up, the stand and both views; w = 0 with w up, where w does not wrap), it looked
// down a column open to below the room, and a mover there falls out.  Drawn as the sky
// alone, such a hole read to a blind player as a shallow well to step into ("a gap looked
// like a sunken floor"): its cell on the room's bottom is crossed in the "fall out" colour,
// as the map crosses it, over a darkened sky; not where a ramp's step crosses the gap
// (crossed_gap: the map draws that one plain).  With w up, level 1's crossed cells were
// nothing at all, and blind players of two rounds found "× fall out" floating over the
// place; there a mover falls in z first, and the cell is crossed where that fall ends out of
// the room (falls_out).
vec3 void_below(vec3 col, vec4 ro, vec4 rd) {
    bool w_up = u_basis[2].w > 0.5;
    int a = w_up ? 3 : 2;
    if (rd[a] >= 0.0) return col;
    float t = -ro[a] / rd[a];
    vec4 p = ro + rd * t;
    if (any(lessThan(p.xy, vec2(0.0))) || any(greaterThanEqual(p.xy, vec2(u_size.xy)))) return col;
    if (w_up) {
        if (WRAPS || p.z < 0.0 || p.z >= float(u_size.z)) return col;
    } else {
#ifdef WRAP
        if (p.w < u_wband.x || p.w >= u_wband.y) return col;
#else
        if (p.w < 0.0 || p.w >= float(u_size.w)) return col;
#endif
    }
    ivec4 c = ivec4(floor(p));
    c[a] = 0;
    if (crossed_gap(c) || (w_up && !falls_out(c))) return col;
    float line = t * (1.4 * u_tan / u_resolution.y);
    g_inv_line = 1.0 / line;
    return out_mark(mix(col, DROP_COLOUR, 0.5), p - floor(p), a, line);
}

// With w up at rest, a hole to the void in the floor you stand on (the layer kata of the
// pawn): the cell at your floor's level and the one over it empty, two of its four sides at
// that level solid, and a mover put there falls out.  Drawn as a pit's face at your floor,
// dark in its rim and crossed, as a pit is in the stand view, over whatever the ray meets
// past it (the hole's sides, the void).
// Seen open, level 1's two crossed cells showed their neighbours' sides and a dark strip a
// cell down: all eighteen blind players of six rounds read the back corners beside them as
// pillars standing over the front row, and three the cells as a trench (t313 to t330),
// though every top there is at w 1.  (With z up a shaft's sides say it, shaft_side; lidded
// there, level 4's ramps stood in a floor of crossed tiles, no longer over nothing.)
vec3 hole_lid(vec3 col, vec4 ro, vec4 rd, vec3 dir, float t_hit) {
    const int a = 3;
    if (u_basis[2].w < 0.99 || rd.w >= 0.0) return col;  // (turning: no level floor)
    float t = (float(u_player_cell[a]) - ro[a]) / rd[a];
    if (t <= 0.0 || t >= t_hit - SNAP) return col;  // (a top at your floor: met there)
    vec4 p = ro + rd * t;
    ivec4 top = ivec4(floor(p));
    top[a] = u_player_cell[a];
    ivec4 c = top;
    c[a] -= 1;
    if (any(lessThan(c, ivec4(0))) || any(greaterThanEqual(c, u_size))) return col;
    if (code_at(c) != CELL_EMPTY || code_at(top) != CELL_EMPTY) return col;
    // in a floor: two of its four sides at that level solid (one over nothing, with lower
    // ground round it, floated as a dark box, t333 in a made room)
    int sides = 0;
    for (int i = 0; i < 4; i++) {
        ivec4 e = ivec4(0);
        e[i >> 1] = ((i & 1) == 0) ? 1 : -1;
        if (code_at(c + e) != CELL_EMPTY) sides += 1;
    }
    if (sides < 2) return col;
    if (crossed_gap(top) || ramp_carries(top) || under_pawn(top) || !falls_out(top)) return col;
    vec4 f = clamp(p - vec4(c), 0.0, 1.0);
    float keep = g_inv_line;
    float line = t * (1.4 * u_tan / u_resolution.y);
    g_inv_line = 1.0 / line;
    float edge = edge_distance(f, a);
    vec3 lid = light(albedo(CELL_BLOCK, c, c.w, f, a, edge, line), face_normal(a, rd, dir), dir);
    lid = out_mark(drop_face(lid, f, rd, a, edge, line), f, a, line);
    g_inv_line = keep;
    return fog(lid, u_eye + dir * t, dir);
}

#endif  // HOLES

// A floor a crate one slice kata holds up (the cell kata of the one a mover would stand in,
// `above`, holds a crate): the crate's planks laid in it, flush, as a crate that fills a gap
// (the map bars it: slicemap.held).  Drawn as any floor, it turned into a pit when the crate
// moved, and blind players were caught out (four in one round); framed only in the crate's
// colour, the frame read as a pit's rim, the gap still open (t334).  The cells are listed
// once a frame (render.held_cells, u_held); past MOST_HELD of them, one texel read on a
// floor's pixel.
bool held_by_crate(ivec4 above) {
#ifdef HELD_READ
    return (WRAPS || above.w > 0) && code_at(above - ivec4(0, 0, 0, 1)) == CELL_CRATE;
#else
    // (the few such cells, listed a frame: a compare or two, no texel read on every floor)
    if (u_held_n == 0) return false;  // (most rooms: no read, no loop)
    ivec4 a = above;
    a.w = WRAPS ? wrap_w(a.w) : a.w;
    for (int i = 0; i < u_held_n; i++) {
        if (all(equal(a, u_held[i]))) return true;
    }
    return false;
#endif
}
vec3 held_mark(vec3 col, vec4 f, int axis) {
    return mix(col, crate_lid(col, f, axis), 0.85);
}

// The player's row and column, drawn on the ground as two lanes of lighter tiles: what lies
// in line with the player (a crate to push, the goal straight ahead, a tall block's top) reads
// at a glance, at any height.  No line down their middle: a dotted line from the pawn that
// stopped at a ramp (a lane is drawn on the ground alone) read as a route to it (t209).  By
// the cell's place in the slice (across, depth) against the player's centre: no texel read;
// of the cell's centre only its across and depth are needed: two dot products, no matrix.
vec3 lane(vec3 col, ivec4 cell) {
    vec4 c = vec4(cell) + 0.5 - u_centre;
    bool row = abs(dot(u_basis[1], c)) < 0.5;     // the cell's centre in depth ...
    bool column = abs(dot(u_basis[0], c)) < 0.5;  // ... and across
    return (row || column) ? col * 1.12 + vec3(0.025) : col;
}

// Which of the goal cell's two floors (its top, axis 2, or its face ana, axis 3) is marked, by
// the goal cell's texel: one goal reads as one square.  Where both downs show (the both view)
// the two floors are both in sight, and framing both drew the goal twice.  The floor along the
// view's up axis is marked where it holds (its cell is solid), else the other one.
int goal_face(uint texel) {
    bool z_up = abs(u_basis[2].z) >= abs(u_basis[2].w);
    bool holds = (texel & (z_up ? TEXEL_BELOW_SOLID : TEXEL_KATA_SOLID)) != uint(0);
    return (z_up == holds) ? 2 : 3;
}

// The goal's floor: a bright frame inside the face and a warm fill, so that which cell is the
// goal is plain even where its glow is hidden.  On a drop (nothing kata holds you there yet)
// the fill is faint and the pit shows through it: a blind player, shown a solid gold floor,
// stepped onto 3.4's goal before a crate held it and slipped a slice.
vec3 goal_floor(vec3 col, float edge, float line, bool drop) {
    float frame = line_step(0.07, 1.0, edge) * (1.0 - line_step(0.17, 1.0, edge));
    vec3 fill = mix(col, GOAL_COLOUR * 0.85, drop ? 0.12 : 0.55);
    return mix(fill, GOAL_COLOUR * 1.6, frame);
}

// A floor out of the slice's outline (the ghost's, the goal's plate's): dashed, a little in
// from the cell's sides, by the point's place (fa, fb) across the floor and the ray's `t`.
float ghost_rim(float fa, float fb, float t) {
    float edge = min(min(fa, 1.0 - fa), min(fb, 1.0 - fb));
    float line = t * (1.4 * u_tan / u_resolution.y);
    float outline = 1.0 - smoothstep(1.5 * line, 3.0 * line, abs(edge - 0.06));
    return outline * step(0.5, fract((fa + fb) * 4.0));
}

// A ramp's fill out of the slice (the ghost's, RAMP_TOPS'), by the point's place (f) across
// its floor: brighter toward its high side, under chevrons pointing up it.
float ramp_fill(uint code, vec4 f) {
    float lean = ramp_lean(code, f);
    float across = (code == CELL_RAMP_XP || code == CELL_RAMP_XN) ? f.y : f.x;
    float chevron = step(0.62, fract((lean + 0.7 * abs(across - 0.5)) * 2.5));
    return 0.12 + 0.4 * lean + 0.25 * chevron;
}

#if defined(GHOST) || defined(STAIR)  // (the stair's slopes draw with no ghost too)
// With w up (z hidden), a ramp of the layer under the cell `c` you would stand in on it, as
// the slope it is: over that cell's floor (w = c.w), a surface rising one along w across
// its lean (off its high side you step one slice ana), and the face that closes it on that
// side; shaded into `shade` where the ray meets it nearer than `best` (which it lowers), by
// `k` (how strongly: the ghost's fade).  Drawn flat on the feet's plane, three rounds of
// blind players read the w-up view's ramps as glass, or as nothing there, and could not find
// the way up (t264, t266, t267).
void ramp_slope(vec4 ro, vec4 rd, ivec4 c, uint code, vec3 col, float k, inout float best,
                inout vec3 shade) {
    int a = (code == CELL_RAMP_XP || code == CELL_RAMP_XN) ? 0 : 1;
    float s = (code == CELL_RAMP_XP || code == CELL_RAMP_YP) ? 1.0 : -1.0;
    float w0 = float(c.w);
    // the slope: its height over the floor is its lean there
    float base = (s > 0.0) ? -float(c[a]) : 1.0 + float(c[a]);
    float t = (s * ro[a] + base - ro.w + w0) / (rd.w - s * rd[a]);
    vec4 p = ro + rd * t;
    vec2 g = p.xy - vec2(c.xy);
    if (t > 0.0 && t < best && all(greaterThanEqual(g, vec2(0.0))) && all(lessThan(g, vec2(1.0)))) {
        best = t;
        float lean = (s > 0.0) ? g[a] : 1.0 - g[a];
        float across = g[1 - a];
        // as a ramp in the slice is drawn (ramp_paint), at the slope's own pixel width
        float inv_line = g_inv_line;
        g_inv_line = u_resolution.y / (t * 1.4 * u_tan);
        vec3 ramp = ramp_paint(lean, lean, across, 1.0);
        g_inv_line = inv_line;
        shade = mix(col, ramp, k * (0.85 + 0.1 * ghost_rim(lean, across, t)));
    }
    // its two sides, triangles under the slope (a wedge: as a slope alone, blind players
    // read it as a glassy cube, t269, t270)
    for (int e = 0; e < 2; e++) {
        float ts = (float(c[1 - a] + e) - ro[1 - a]) / rd[1 - a];
        vec4 r = ro + rd * ts;
        float hs = r.w - w0;
        float u = r[a] - float(c[a]);
        float ls = (s > 0.0) ? u : 1.0 - u;
        if (ts > 0.0 && ts < best && u >= 0.0 && u < 1.0 && hs >= 0.0 && hs <= ls) {
            best = ts;
            float line = ts * (1.4 * u_tan / u_resolution.y);
            float rim = 1.0 - smoothstep(1.5 * line, 3.0 * line, min(ls - hs, hs));
            shade = mix(col, RAMP_COLOUR * 0.5, k * (0.75 + 0.2 * rim));
        }
    }
    // its high side's face, up from the floor to the slope's top
    float at = float(c[a]) + ((s > 0.0) ? 1.0 : 0.0);
    float tf = (at - ro[a]) / rd[a];
    vec4 q = ro + rd * tf;
    float h = q.w - w0;
    float along = q[1 - a] - float(c[1 - a]);
    if (tf > 0.0 && tf < best && h >= 0.0 && h < 1.0 && along >= 0.0 && along < 1.0) {
        best = tf;
        float line = tf * (1.4 * u_tan / u_resolution.y);
        float edge = min(min(h, 1.0 - h), min(along, 1.0 - along));
        float rim = 1.0 - smoothstep(1.5 * line, 3.0 * line, edge);
        shade = mix(col, RAMP_COLOUR * 0.55, k * (0.6 + 0.35 * rim));
    }
}
#endif

#ifdef GHOST
// The ghost of the floor out of the slice, drawn as a dashed outline with a faint fill on the
// plane just under the player's feet, only where this slice has no floor there: with w hidden
// (u_ghost_step = +w), the floor one slice ana (where a ramp lands you, a stair or a ledge
// ahead); with z hidden (+w - z), the layer below, where a ramp holds the player kata.  Ramps
// in their own colour, with their lean.
// Dashed and hollow, it is never a solid (solids are opaque, with lit faces) nor a cutaway
// (what a cutaway takes is simply not drawn).
// llvmpipe pays for all of this in every pixel, drawn or not (a tenth of the frame), so the
// renderer leaves GHOST out of a frame whose plane meets no cell with a ghost to show
// (render.feet_plane_meets, on the CPU).
// The ghost's ramps as slopes (ramp_slope), in the two columns where the ray crosses the top
// of the slab over the pawn's floor and the feet's plane; not in the pawn's own column, whose
// figure stands in it (drawn flat there).  (col, 0) where none is met before `t_hit`.
vec4 ghost_slopes(vec3 col, vec4 ro, vec4 rd, vec3 dir, float t_hit) {
    float best = t_hit;
    vec3 shade = col;
    ivec2 first = ivec2(-99);
    for (int k = 0; k < 2; k++) {
        float t = (FEET + float(1 - k) - u_eye.z) / dir.z;
        vec4 q = ro + rd * max(t, 0.0);
        ivec4 c = ivec4(int(floor(q.x)), int(floor(q.y)), u_player_cell.z, u_player_cell.w);
        if (c.xy == first) break;  // (one column: the ray crosses the slab within it)
        first = c.xy;
        if (c.x == u_player_cell.x && c.y == u_player_cell.y) continue;
        if (any(lessThan(vec2(c.xy), u_slopes_box.xy))
            || any(greaterThanEqual(vec2(c.xy), u_slopes_box.zw))) continue;
        uint code = code_at(c - ivec4(0, 0, 1, 0));
        if (code < CELL_RAMP_XP || code > CELL_RAMP_YN) continue;
        ramp_slope(ro, rd, c, code, col, u_ghost, best, shade);
    }
    return vec4(shade, best < t_hit ? 1.0 : 0.0);
}

vec3 ghost(vec3 col, vec4 ro, vec4 rd, vec3 dir, float t_hit) {
    float tp = (FEET - u_eye.z) / dir.z;
    if (u_slopes_n != 0 && u_ghost_codes.x == uint(CELL_RAMP_XP) && dir.z < 0.0
        && u_basis[2].w > 0.999) {
        vec4 slope = ghost_slopes(col, ro, rd, dir, t_hit);
        if (slope.w > 0.5) return slope.rgb;
    }
    // A ramp under the feet shows over the floor at the feet too (the plane is just under
    // it): with z hidden, the ramp below a floor is what carries the pawn ana, and hidden
    // by that floor it could not be found (level 3 with w up).
    float over = (u_ghost_codes.x == uint(CELL_RAMP_XP)) ? 0.05 : 0.0;
    if (!(dir.z < 0.0 && tp > 0.0 && tp < t_hit - over / dir.z)) return col;
    vec4 p = ro + rd * tp;
    ivec4 c = ivec4(floor(p));
    uint code = code_at(c + u_ghost_step);
    // Its body costs about half the shading where it runs: keep it to the pixels it draws.
    if (code < u_ghost_codes.x || code > u_ghost_codes.y) return col;
    bool ramp = code >= CELL_RAMP_XP && code <= CELL_RAMP_YN;
    vec4 f = p - floor(p);
    float rim = ghost_rim(f.x, f.y, tp);
    vec3 tint = ramp ? RAMP_COLOUR : GHOST_COLOUR;
    float fill = 0.16;
    if (ramp) {
        // Its lean, as the ramp's own chevrons show it: chevrons pointing up it (their tips
        // toward its high side, the way off it ana) over a fill brighter toward that side; a
        // ramp, the way on, more strongly than a floor's ghost.  Drawn as plain stripes
        // across it, with w up three blind players of a round read level 3's and level 7's
        // ramps as flat striped pads with no slope or way.
        fill = ramp_fill(code, f);
    }
    return mix(col, tint, u_ghost * (fill + 0.65 * rim));
}
#endif

#ifdef MARKS
const vec3 PUSH_COLOUR = vec3(1.00, 0.70, 0.42);  // lighter than a crate, never the goal's gold

// The marks drawn at rest, in two slots, each a box test like the goal's.  A variant: its code
// alone cost +0.4 of plain on llvmpipe even with no mark to draw.
// - Where a step from the ramp underfoot lands (way +1 ana, -1 kata): the cell's outline in
//   the palette's mark colour, dashed, with two chevrons on its sides along the way it goes
//   (up for ana, down for kata; u_mark_dir), its faces only just tinted; over whatever is
//   there, since the step goes round it through w, and seen faintly through what hides it
//   (in the w-up view a kata landing lies under the wall the step goes round: hidden, level
//   3's way back read as a wall to a blind player).
// - Where a push moves a crate beside the pawn (way +2, pose.push_marks, in the slots the
//   ramp's leave): the cell it would go into, drawn over whatever hides it (the crate itself,
//   mostly) as a hollow light orange box (the crates', lightened), dashed, with two chevrons on its top
//   pointing the push's way (u_mark_dir).  The same sums for both, by selects: a second
//   kind of mark written out cost a third of such a frame more.
vec3 ramp_marks(vec3 col, vec4 ro, vec4 rd, float t_hit, ivec4 hit_cell) {
    // Never over the pawn's own cell: where the ray, past the box, meets the pawn's column
    // (its floor, the cell it stands in), the mark is not drawn (a box in front of the pawn
    // drawn over its floor read as the landing being where the pawn already is).
    vec4 d = vec4(hit_cell - u_player_cell);
    if (t_hit < NEVER && abs(dot(d, u_basis[0])) < 0.5 && abs(dot(d, u_basis[1])) < 0.5
        && dot(d, u_basis[2]) < 0.5) return col;
    bool w_up = u_basis[2].w > 0.7;  // (a landing kata lies under the wall it goes round)
    bool w_hidden = abs(u_basis[3].w) > 0.7;
    for (int i = 0; i < 2; i++) {
        int axis;
        vec2 m = box(ro, rd, u_mark_lo[i], axis);
        bool push = u_mark_way[i] > 1.5;
        bool behind = m.x > t_hit + 0.02;
        if (m.x > m.y || m.y <= 0.0) continue;
        vec4 q = ro + rd * max(m.x, 0.0);
        vec4 f = clamp(q - u_mark_lo[i], 0.0, 1.0);
        float line = max(m.x, 1.0) * (1.4 * u_tan / u_resolution.y);
        float edge = edge_distance(f, axis);
        vec3 qs = u_to_slice * (q - u_mark_lo[i] - 0.5);
        // its edges dashed: along an edge two of qs's coordinates are at +-0.5 and the least
        // runs along it (0.5 less it: how far from the corner); a dash at each corner
        float from_corner = 0.5 - min(abs(qs.x), min(abs(qs.y), abs(qs.z)));
        float outline = (1.0 - smoothstep(1.5 * line, 3.5 * line, edge))
                      * step(fract(from_corner * 4.0), 0.5);
        vec3 ns = u_to_slice[axis];
        // the chevrons: on its sides (a ramp's) or its floor (a push's), across the way.  A
        // push's were on its top, a crate's height up: that lies over the row behind on
        // screen, and a blind player read level 5's push as going into the pit behind.  Its
        // floor is where the ray leaves the box through its bottom (seen through the box).
        vec3 dir = u_mark_dir[i];
        vec3 side = push ? vec3(-dir.y, dir.x, 0.0) : vec3(-ns.y, ns.x, 0.0);
        bool face;
        if (push && !behind) {
            vec3 out_s = u_to_slice * (ro + rd * min(m.y, t_hit) - u_mark_lo[i] - 0.5);
            face = out_s.z < -0.49;
            qs = out_s;
        } else if (push) {  // (seen through what hides it: on its top, faint)
            face = abs(ns.z) > 0.5;
        } else {
            face = abs(ns.z) <= 0.5;
        }
        float across = abs(dot(qs, side));
        float v = dot(qs, dir) + 0.9 * across;
        float mark = (!face || across > 0.34) ? 0.0
                   : step(abs(v - 0.28), 0.07) + step(abs(v - 0.02), 0.07);
        // With w hidden, a ramp's landing where your slice has a block (the wall its step goes
        // round): no chevrons on the wall's sides but a dark round window in them, rimmed, as
        // a marker inside a block is drawn (its place is there, in another slice).  With its
        // chevrons up the wall's face, blind players of every round read level 3's wall as a
        // step to climb, or a ramp (t250, t254, t259).
        if (!push && w_hidden && face && !behind
            && code_at(ivec4(floor(u_mark_lo[i] + 0.5))) != CELL_EMPTY) {
            float r = length(qs - dot(qs, ns) * ns) - 0.3;
            col = mix(col, vec3(0.04, 0.045, 0.07), 0.82 * (1.0 - smoothstep(-line, 0.0, r)));
            mark = 1.0 - smoothstep(1.0 * line, 2.2 * line, abs(r));
        }
        // lighter where seen through what hides it, its lines too: drawn as strong there, a
        // push's box over the wall in front of it read as the crate going onto that wall.
        // Its faces barely tinted: filled, blind players took both boxes for things in the
        // room (a ghost crate standing on a pit, a glass block on a wall).
        // With w up a ramp's landing hidden (kata: in the cavity under the wall the step
        // goes round) is filled more: a faint outline on the wall's hatching, level 3's way
        // back kata read to blind players of two rounds as more wall (t249, t250).
        bool sunk = u_mark_way[i] < -0.5 && behind && w_up;
        float tint = push ? (behind ? 0.03 : 0.06) : sunk ? 0.3 : 0.05;
        // A ramp's landing with w up lies in the cavity under the wall the step goes round,
        // hidden by the walkway's own block: drawn faintly there, level 3's way back kata
        // "almost vanished" to a blind player, who would not have found it.  With w up its
        // box is drawn over what hides it as strongly as where it shows.
        float ink = !behind ? 1.0 : (!push && w_up) ? 0.9 : 0.4;
        col = mix(col, push ? PUSH_COLOUR : u_mark_colour,
                  max(ink * max(0.9 * outline, 0.85 * mark), tint));
    }
    return col;
}
#endif

// The goal's floor where the picture has none: where nothing is drawn under the goal along
// the view's up axis (nothing is there, or the ceiling's cut took it), but its floor is there
// (the cut block, or one along the hidden axis: with w hidden, the block kata of it), a plate
// on the goal's underside in the ghost's way, a dashed outline and a faint fill.  With w up,
// level 4's goal, three slices ana on a block the ceiling cuts, was a glowing cube over
// nothing, and four blind players of two rounds said it floated.
// A plane's crossing a pixel; a texel read or two in the goal's footprint only; a variant
// of its own (PLATE), where nothing of the room is drawn under the goal (pose.frame_uniforms).
vec3 goal_plate(vec3 col, vec4 ro, vec4 rd, float t_hit) {
    int a = u_goal_plate.x;
    if (a < 0 || rd[a] >= 0.0) return col;
    float t = (u_goal[a] - ro[a]) / rd[a];
    if (t <= 0.0 || t >= t_hit) return col;
    vec4 f = ro + rd * t - u_goal;
    int i = u_ao_a[a];
    int j = u_ao_b[a];
    if (min(f[i], f[j]) < 0.0 || max(f[i], f[j]) > 1.0) return col;
    ivec4 g = ivec4(floor(u_goal + 0.5));
    ivec4 under = g;
    under[a] -= 1;
    ivec4 floor_out = g;
    floor_out[u_goal_plate.y] -= 1;
    bool cut = code_at(under) != CELL_EMPTY;  // (under it, but over the ceiling's cut)
    if (cut ? !over_ceiling(under) : code_at(floor_out) == CELL_EMPTY) return col;
    return mix(col, GHOST_COLOUR, 0.22 + 0.7 * ghost_rim(f[i], f[j], t));
}

#ifdef RAMP_TOPS
// With w up, a ramp of the hidden layer (under the cell you would stand in, in z) on a top
// of another slice than the pawn's: drawn on that top as the ghost draws the pawn's own (its
// lean, chevrons up it, a dashed rim; the ghost's plane is the pawn's floor alone).  Left
// out, level 6's ramp, with the pawn a slice ana of it, was a plain floor, and a blind player
// thought it gone (t252).  A texel read on such tops, in a variant of its own.
vec3 ramp_top(vec3 col, ivec4 above, vec4 f, float t) {
    uint code = code_at(above - ivec4(0, 0, 1, 0));
    if (code < CELL_RAMP_XP || code > CELL_RAMP_YN) return col;
    return mix(col, RAMP_COLOUR, ramp_fill(code, f) + 0.65 * ghost_rim(f.x, f.y, t));
}
#endif

#ifdef STAIR
// With w up, the ramps ana of the pawn in its z (over the ceiling's cut, not drawn; the
// nearest MOST_STAIR, pose.stair_cells): each drawn as the slope it is (ramp_slope), over
// whatever lies behind it.  Level 4's goal three slices ana glowed over
// the pawn's pits with the ramps up to it cut away, and blind players of four rounds read
// it as floating out of reach; drawn as dashed boxes, a stair of them, two more blind
// players read them as tall glass towers and never learnt what they were (t264, t267).
// `t_front`: how far the ray goes before what it met hides a slope (trace_slice's
// stair_t).
vec3 stair(vec3 col, vec4 ro, vec4 rd, float t_front) {
    float best = t_front;  // (behind what is drawn in front of it, the first one's)
    vec3 shade = col;
    for (int i = 0; i < MOST_STAIR; i++) {
        if (i >= u_stair_n) break;
        ivec4 c = ivec4(floor(u_stair[i] + 0.5));
        uint code = uint(u_stair_code[i]);
        if (code < CELL_RAMP_XP || code > CELL_RAMP_YN) continue;
        ramp_slope(ro, rd, c, code, col, 0.85, best, shade);
    }
    return shade;
}
#endif

// -- the window's rim ----------------------------------------------------------------------
// The window round the pawn (slice_march: the walk steps past what hides the pawn inside it)
// has a rim where it is cut in something: a ring in the pawn's colour at its edge, so that it
// reads as a hole cut there, not a wall seen through (trace_slice draws it).

// Inside the window, a block it cuts keeps its top as a lid: its outer edges outlined and a
// veil of its colour over what the window shows, at the top's own height, the pawn too where
// the lid is nearer the eye (drawn under the lid's edge, the pawn behind level 3's ridge
// read, with w up, as standing on it: t229).  Cut bare, the
// wall in front of level 2's pawn lost the corner by the pawn, and blind players read the
// cut cell as a floor cut down, or the wall as starting at the edge of their own cell.  The
// tops of blocks at the pawn's level only (the window cuts nothing lower; one higher, the
// ceiling's cut takes them with w up, and their lid drew a grey cap over the pawn); by the
// ray's crossing of that plane: a texel read or two, inside the window only.
const vec3 LID_EDGE = vec3(0.90, 0.94, 0.88);
vec3 window_lid(vec3 col, vec4 ro, vec4 rd, vec3 dir, float t_hit) {
    int a = view_up();
    if (abs(u_basis[2][a]) < 0.99 || rd[a] >= 0.0) return col;  // (turning, or looking up)
    float plane = floor(u_centre[a]) + 1.0;  // the top of the pawn's cell, along the view's up
    float t = (plane - ro[a]) / rd[a];
    if (t > 0.0 && t < t_hit) {
        vec4 p = ro + rd * t;
        ivec4 cell = ivec4(floor(p));
        cell[a] = int(plane) - 1;
        ivec4 over = cell;
        over[a] += 1;
        if (code_at(cell) != CELL_BLOCK || (code_at(over) != CELL_EMPTY && !over_ceiling(over))
            || over_ceiling(cell) || !hides_pawn(cell, dir)) return col;
        vec4 f = clamp(p - vec4(cell), 0.0, 1.0);
        g_inv_line = 1.0 / (max(t, 1.0) * (1.4 * u_tan / u_resolution.y));
        float outline = 0.0;
        for (int n = 0; n < 2; n++) {
            int j = (n == 0) ? u_ao_a[a] : u_ao_b[a];
            bool plus = f[j] >= 0.5;
            float d = min(f[j], 1.0 - f[j]);
            if (d > 0.2) continue;
            ivec4 next = cell;
            next[j] += plus ? 1 : -1;
            ivec4 next_over = next;
            next_over[a] += 1;
            // an outer edge: no top at this height goes on past it
            if (code_at(next) != CELL_BLOCK || code_at(next_over) != CELL_EMPTY) {
                outline = max(outline, 1.0 - line_step(0.03, 1.5, d));
            }
        }
        vec3 top = albedo(CELL_BLOCK, cell, WRAPS ? wrap_w(cell.w) : cell.w, f, a, 1.0, 1.0);
        col = mix(col, top * 1.1, 0.15);
        return mix(col, LID_EDGE, 0.85 * outline);
    }
    return col;
}

// The colour of the slice whose eye (4D) is `ro`, along the pixel's ray `dir` (rd in 4D).
vec3 trace_slice(vec4 ro, vec4 rd, vec3 dir, out float t_hit) {
#if defined(PLAIN)
    Hit h = traverse(ro, rd, vec2(0.0, NEVER));
#else
    // Inside the window round the pawn the walk steps past what hides it (slice_march); its
    // rim, a thin ring, walks as any pixel does and ends on what the window cuts.  By the
    // square of window_at, from per-frame uniforms: a few operations a pixel, as the window
    // is shut in most frames.
    float along = dot(u_window_to, dir);
    float window2 = (u_window_k.x - along * along) * u_window_k.y;
    g_dir = dir;
    g_window = window2 < u_window_k.z;
    g_windowed = g_window;
    g_stop = g_window ? TEXEL_STOP_MASK | TEXEL_CLEAR_MASK : TEXEL_STOP_MASK;
    Hit h = traverse(ro, rd, wrap_band(ro, rd, ceiling(u_eye, dir)));
    g_window = false;
    g_stop = TEXEL_STOP_MASK;
#endif
    t_hit = h.found ? h.t : NEVER;
    // how far the ray goes before what it met hides a stair's slope: its hit, or never where
    // it met a drop (a pit, drawn as a face at the pawn's floor with its shaft painted in:
    // a ramp kata of the pawn stands down in that shaft, and cut off by the face, level 4's
    // stair lost its middle once the pawn was up it, t316 to t327)
    float stair_t = t_hit;
    float line = max(h.t, 1.0) * (1.4 * u_tan / u_resolution.y);  // no division a pixel
    g_inv_line = 1.0 / line;
#if defined(PLAIN)
    if (!h.found) return background(dir);
    vec3 flat_colour = vec3(0.35 + 0.2 * float(h.axis + 1), 0.5, 0.6);
    return flat_colour * (h.code == CELL_CRATE ? 0.7 : 1.0);
#else
    vec3 col = background(dir);
    float goal_light = 0.5;  // the light in the goal's cell (dimmed over a pit: below)
#ifdef MOVING_CRATE
    int moving_axis;
    vec2 mc = crate_box(ro, rd, u_crate_lo);
    if (mc.x < t_hit) {
        moving_axis = int(mc.y);  // (NEVER where missed: no axis to read)
        t_hit = max(mc.x, 0.0);
        vec4 p = ro + rd * t_hit;
        vec4 f = crate_f(p, u_crate_lo);
        float edge = edge_distance(f, moving_axis);
        vec3 n = face_normal(moving_axis, rd, dir);
        col = light(albedo(CELL_CRATE, ivec4(0), 0, f, moving_axis, edge, line), n, dir);
        col = fog(col, u_eye + dir * t_hit, dir);
    } else
#endif
    if (h.found) {
        vec4 p = ro + rd * h.t;
        vec4 cell = vec4(h.cell);
        vec4 f = (h.code == CELL_CRATE) ? crate_f(p, cell) : clamp(p - cell, 0.0, 1.0);
        float edge = edge_distance(f, h.axis);
        vec3 n = face_normal(h.axis, rd, dir);
        col = albedo(h.code, h.cell, h.wcell, f, h.axis, edge, line);
        vec3 base = col;
        // The empty cell in front of the face: one read for the occlusion and the footing.
        ivec4 front = h.cell;
        if (h.axis >= 0) front[h.axis] -= int(sign(rd[h.axis]));
        uint front_texel = texel_at(front);
        col *= occlusion(h.cell, front_texel, h.axis, (h.axis >= 0) ? int(sign(rd[h.axis])) : 0, f);
        vec3 s = u_eye + dir * h.t;
        col = light(col, n, dir) * player_shadow(s);
        if (h.axis >= 0 && h.axis < 3 && u_basis[2].w > 0.5) {
            // With w up, a block's side under the floor you stand on darkens down it, as a
            // trench's wall does: the side of level 5's goal column, seen over the trench
            // beside it and lit as a top is, read to four blind players as a column standing
            // higher than the floor they stood on, at one height with it (t280, t284, t286,
            // t291); the far side of the trench, facing away, shows nothing.
            float below = (u_centre.w - 0.5) - p.w;
            col *= 1.0 - 0.37 * clamp(below, 0.0, 1.5);
            if (below < -SNAP && h.code == CELL_BLOCK) col = rise_side(col, f, h.axis, line);
        }
#ifdef HOLES
        if (h.code == CELL_BLOCK && u_basis[2].z > 0.5) {  // (a shaft's sides: z up alone)
            col = shaft_side(col, h.axis, p, f, h.cell, front, front_texel, line);
        }
#endif
        ivec4 above;
        int foot = footing(h.cell, h.axis, rd, h.code, front_texel, above);
        if (foot == 0) stair_t = NEVER;
        if (h.code == CELL_BLOCK && is_top(h.axis, rd)) col = lip(col, base, h.near, h.cell, h.axis, f);
        if (foot == 0) {
            if (crossed_gap(above)) {
                // a gap a ramp's step crosses: dark alone, as the map draws it (rimmed, it
                // read as a slip pit; crossed, as a fall)
                col = mix(col * 0.8, DROP_COLOUR, 0.9);
            } else {
                col = drop_face(col, f, rd, h.axis, edge, line);
                // (no cross down the pawn's own column: what holds it there, a ramp of the
                // hidden layer with w up, is not in the slice, and four blind players read the
                // pawn on level 4's ramps as standing over a fall-out cell)
                int slips = settle_slips(above);
                if (slips < 0 && !ramp_carries(above) && !under_pawn(above)) {
                    col = out_mark(col, f, h.axis, line);
                } else if (slips >= 2 && u_basis[2].z > 0.5 && abs(u_basis[3].w) > 0.5) {
                    // (with w hidden, as the map: its slices kata are not in sight)
                    col = slip_rims(col, f, h.axis, slips);
                }
            }
        }
        if (foot == 1 && is_top(h.axis, rd)) {  // (not upright)
            col = lane(col, h.cell);
            if (held_by_crate(above)) col = held_mark(col, f, h.axis);
#ifdef RAMP_TOPS
            if (h.axis == 3 && above.w != u_player_cell.w) col = ramp_top(col, above, f, h.t);
#endif
        }
        if ((front_texel & TEXEL_CODE_MASK) == CELL_CRATE) {
            if (h.axis >= 0 && is_top(h.axis, rd) && over_ceiling(front)) {
                // A crate the ceiling's cut takes (with w up, a crate one slice ana: nothing
                // ana of you is drawn): its lid on the top it stands on.  Its whole cell's
                // top in its foot's shadow, a dark square, read to three blind players of
                // six as a hole in the wall (level 6's crate with w up, t282, t284, t285).
                col = crate_lid(col, f, h.axis);
            } else {
                // A crate's foot: its own cell's floor round it (a crate stands CRATE_INSET in
                // from its sides), or a face beside it, seen past its side; in its shadow.
                col *= 0.25;
            }
        } else if ((front_texel & TEXEL_CODE_MASK) != CELL_EMPTY) {  // shown by a cutaway
            if (h.axis >= 0 && over_ceiling(front)) {
                if (is_top(h.axis, rd) && h.code == CELL_BLOCK) col = room_top_cap(col, f, line, h.near, h.axis);
            } else if (!(window2 < u_window_k.z)) {
                col = cut_face(col, f, line);
            }
        } else if (h.code == CELL_BLOCK && room_top(h.cell, h.axis, rd)) {
            // (a block's: a crate's top at the room's top, hatched, read as a wall's)
            col = room_top_cap(col, f, line, h.near, h.axis);
        }
        if (foot >= 0 && all(equal(above, ivec4(floor(u_goal + 0.5))))
            && h.axis == goal_face(front_texel)) {
            col = goal_floor(col, edge, line, foot == 0);
            if (foot == 0) goal_light = 0.15;  // its pit seen through the light, dark
        }
#ifdef WRAP
        // Cells of the next turn of w (copies of this one's) are drawn faded.
        int turn_w = h.cell.w - u_player_cell.w;
        if (turn_w > 0 || turn_w <= -u_size.w) col = mix(col, background(dir), 0.45);
#endif
        col = fog(col, s, dir);
    }
#ifdef HOLES
    else {
        col = void_below(col, ro, rd);
    }
    col = hole_lid(col, ro, rd, dir, t_hit);
#endif
#ifdef GHOST
    col = ghost(col, ro, rd, dir, t_hit);
#endif
    // The goal glows: light along the ray's path through its cell, and a halo round it that
    // dims with the distance in 4D (so a goal a slice away still shows, faintly).
#ifdef MARKS
    col = ramp_marks(col, ro, rd, t_hit, h.cell);
#endif
#ifdef PLATE
    col = goal_plate(col, ro, rd, t_hit);  // (a variant: every pixel paid for it, a sixth)
#endif
#ifdef STAIR
    col = stair(col, ro, rd, stair_t);
#endif
    // The goal: a faint light in its cell and its floor marked (above);
    // no halo spills onto its neighbours while it is in the slice.  Out of the slice, a halo
    // that dims with the distance in 4D says it is near.
    int goal_axis;
    vec2 g = box(ro, rd, u_goal, goal_axis);
    float inside = max(min(g.y, t_hit) - max(g.x, 0.0), 0.0);
    vec4 to_goal = u_goal + 0.5 - ro;
    float tc = clamp(dot(to_goal, rd), 0.0, t_hit);
    float d2 = dot(to_goal - rd * tc, to_goal - rd * tc);
    float halo = u_goal_away / (1.0 + 2.2 * d2);
    col += GOAL_COLOUR * (goal_light * inside / (inside + 0.6) + 0.35 * halo * halo);
    // the rim: where the ring's ray ends nearer than the pawn, above its feet (on what the
    // window cuts, not on the floor in front)
    if (window2 < u_window_k.w && window2 >= u_window_k.z && h.found && h.t < along - 0.3
        && u_eye.z + dir.z * h.t > -0.49) {
        col = PLAYER_COLOUR * 1.1;
    }
    return col;
#endif
}

// The player: a pawn of two spheres at the slice's origin (the slice always passes through
// the player's centre).  Returns the ray's distance to it, or NEVER.
float sphere(vec3 ro, vec3 rd, vec3 centre, float radius) {
    vec3 oc = ro - centre;
    float b = dot(oc, rd);
    float c = dot(oc, oc) - radius * radius;
    float disc = b * b - c;
    if (disc < 0.0) return NEVER;
    float t = -b - sqrt(disc);
    return t > 0.0 ? t : NEVER;
}

vec3 draw_player(vec3 col, vec3 dir, float t_hit, out float t_pawn) {
    const vec3 BODY = vec3(0.0, 0.0, -0.14);
    const vec3 HEAD = vec3(0.0, 0.0, 0.27);
    float tb = sphere(u_eye, dir, BODY, 0.30);
    float th = sphere(u_eye, dir, HEAD, 0.19);
    float t = min(tb, th);
    t_pawn = t;
    if (t >= NEVER) return col;
    vec3 p = u_eye + dir * t;
    // A point on a sphere is its radius from the centre: no normalize.
    vec3 n = (tb < th) ? (p - BODY) * (1.0 / 0.30) : (p - HEAD) * (1.0 / 0.19);
    float rim = 1.0 - max(dot(n, -dir), 0.0);
    rim *= rim;
    if (t >= t_hit) {
        // Behind what the window does not cut (rare: a cell beside it, not in front): its
        // outline and a faint fill, so the pawn is never lost from sight.
        return mix(col, PLAYER_COLOUR, max(SOFT_STEP(0.55, 0.8, rim), 0.35));
    }
    vec3 lit = PLAYER_COLOUR * (0.35 + 0.6 * max(dot(n, normalize(KEY_DIR)), 0.0)
                                + 0.25 * max(n.z, 0.0));
    return lit + vec3(1.0, 0.85, 0.9) * rim * 0.45;
}

