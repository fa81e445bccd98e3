#!/bin/sh
# Writes each sample's title, caption, keywords, creator and licence into the JPEG itself (EXIF, IPTC and
# XMP, the three places photo tools read), so its credit travels with the file and reaches its Item through
# the ordinary indexer. Run once from this folder after replacing a sample; needs exiftool
# (Debian: libimage-exiftool-perl). CREDITS.md lists the same facts for people.
set -eu
cd "$(dirname "$0")"

credit() {
    file=$1 title=$2 caption=$3 keywords=$4 creator=$5 rights=$6 source=$7
    set -- -q -overwrite_original -all= -tagsfromfile @ -icc_profile -codedcharacterset=utf8 \
        -EXIF:ImageDescription="$title" -EXIF:Artist="$creator" -EXIF:Copyright="$rights" \
        -IPTC:ObjectName="$title" -IPTC:Caption-Abstract="$caption" -IPTC:By-line="$creator" \
        -IPTC:CopyrightNotice="$rights" \
        -XMP-dc:Title="$title" -XMP-dc:Description="$caption" -XMP-dc:Creator="$creator" \
        -XMP-dc:Rights="$rights" -XMP-dc:Source="$source" -XMP-photoshop:Credit="$creator"
    old_ifs=$IFS
    IFS=,
    for keyword in $keywords; do
        set -- "$@" -IPTC:Keywords="$keyword" -XMP-dc:Subject="$keyword"
    done
    IFS=$old_ifs
    exiftool "$@" "$file"
}

credit Cafe/espresso-cup-on-a-wooden-table.jpg \
    "Espresso cup on a wooden table" \
    "A red espresso cup and saucer with a spoon, on a worn wooden counter at Pikolo Espresso Bar." \
    "espresso,coffee,cup,saucer,spoon,wood" \
    "Rachel Michetti" \
    "CC0 1.0: no rights reserved by the photographer, Rachel Michetti" \
    "https://github.com/scikit-image/scikit-image/blob/main/skimage/data/_fetchers.py"

credit Pets/chelsea-the-tabby-cat.jpg \
    "Chelsea the tabby cat" \
    "Close-up of Chelsea, a tabby cat with green eyes." \
    "cat,tabby,kitten,whiskers,eyes" \
    "Stefan van der Walt" \
    "CC0 1.0: no rights reserved by the photographer, Stefan van der Walt" \
    "https://github.com/scikit-image/scikit-image/blob/main/skimage/data/_fetchers.py"

credit Space/astronaut-eileen-collins.jpg \
    "Astronaut Eileen Collins" \
    "Portrait of Eileen Collins, the first woman to pilot (STS-63, 1995) and command a Space Shuttle." \
    "astronaut,nasa,space shuttle,portrait,flag" \
    "NASA" \
    "Public domain: NASA image, no known copyright restrictions" \
    "https://flic.kr/p/r9qvLn"

credit Space/falcon-9-rocket-launch.jpg \
    "Falcon 9 rocket launch with DSCOVR" \
    "A SpaceX Falcon 9 lifts off from Launch Complex 40, Cape Canaveral, carrying the DSCOVR satellite (2015)." \
    "rocket,launch,spacex,falcon 9,dscovr,cape canaveral" \
    "SpaceX" \
    "Public domain: released by SpaceX" \
    "https://www.flickr.com/photos/spacexphotos/16511594820/"

credit Space/hubble-extreme-deep-field.jpg \
    "Hubble eXtreme Deep Field" \
    "The Hubble Space Telescope's farthest view of the universe: thousands of galaxies in a tiny patch of sky." \
    "hubble,telescope,galaxies,universe,stars,astronomy" \
    "NASA, ESA and the HUDF09 Team" \
    "Public domain: NASA image, may be freely used" \
    "http://hubblesite.org/newscenter/archive/releases/2012/37/image/a/"

credit People/photographer-with-camera-on-tripod.jpg \
    "Photographer with a camera on a tripod" \
    "A man in a dark coat looks through a camera on a tripod on a lawn, buildings behind him (black and white)." \
    "photographer,camera,tripod,black and white,portrait" \
    "Lav Varshney" \
    "CC0 1.0: no rights reserved by the photographer, Lav Varshney" \
    "https://github.com/scikit-image/scikit-image/issues/3927"
