#version 330 core
// The room, from the internal target, scaled up smoothly onto the window (or half of it).
uniform sampler2D scene;    // the room, at the internal size, scaled up smoothly
uniform vec2 scene_part;    // the part of the scene texture drawn this frame (1, 1: all)
uniform vec2 scene_edge;    // that part less half a texel: no bleed from the undrawn rest
in vec2 uv;
out vec4 colour;
void main() {
    colour = vec4(texture(scene, min(uv * scene_part, scene_edge)).rgb, 1.0);
}
